// Beekeeper's audit trail on the object itself: a core/v1 Event, shaped like client-go's recorder makes them
// (name `<object>.<hex nanoseconds>`, source and reportingComponent set), so `kubectl describe` shows it.
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { sleep, type Clock } from '../clock.js';
import { Conflict, Unavailable } from '../hive/errors.js';
import type { KindName, KubeEvent, KubeObject, ObjectRef } from '../services/ports.js';
import type { Hub } from './hub.js';
import { apiVersionOf } from './kinds.js';
import { createObject } from './live-ops.js';

const COMPONENT = 'beekeeper';
/** events.k8s.io caps a note at 1 kB; stay under it for either API. */
const MAX_MESSAGE = 1024;

/** Kubernetes times are RFC 3339 in whole seconds. */
export const kubeTime = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The name's suffix: client-go's hex nanoseconds, or with a key 16 hex digits derived from the object and the key
 * (the same length), so writing the same keyed Event again meets AlreadyExists instead of adding a second one.
 */
function suffix(kind: KindName, ref: ObjectRef, key: string | undefined, now: number): string {
  if (key !== undefined)
    return createHash('sha256')
      .update(`${kind}/${ref.namespace ?? ''}/${ref.name}/${key}`)
      .digest('hex')
      .slice(0, 16);
  return (BigInt(now) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000))).toString(16);
}

export function buildEvent(
  kind: KindName,
  ref: ObjectRef,
  target: KubeObject | undefined,
  event: KubeEvent,
  clock: Clock,
): KubeObject {
  const now = clock.now();
  const namespace = event.namespace ?? ref.namespace ?? 'default';
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${ref.name}.${suffix(kind, ref, event.key, now)}`,
      namespace,
      ...(event.labels ? { labels: event.labels } : {}),
      ...(event.annotations ? { annotations: event.annotations } : {}),
    },
    involvedObject: {
      apiVersion: apiVersionOf(kind),
      kind,
      name: ref.name,
      ...(ref.namespace ? { namespace: ref.namespace } : {}),
      ...(target?.metadata.uid ? { uid: target.metadata.uid } : {}),
      ...(target?.metadata.resourceVersion ? { resourceVersion: target.metadata.resourceVersion } : {}),
    },
    type: event.type,
    reason: event.reason,
    message: event.message.length > MAX_MESSAGE ? `${event.message.slice(0, MAX_MESSAGE - 1)}…` : event.message,
    action: event.action,
    source: { component: COMPONENT, host: hostname() },
    reportingComponent: COMPONENT,
    reportingInstance: hostname(),
    firstTimestamp: kubeTime(now),
    lastTimestamp: kubeTime(now),
    count: 1,
  };
}

/** Tries per Event, the first included: under 10 % hub faults a lost Event is then about one in 100 000. */
const EVENT_TRIES = 6;
const FIRST_BACKOFF_MS = 200;
/** No wait longer than this, whatever Retry-After says: the action waits for its Event. */
const MAX_BACKOFF_MS = 1000;

/**
 * Creates the Event, retrying what may pass (Unavailable: 429, 5xx, network) with doubling backoff, honouring
 * Retry-After up to a bound. AlreadyExists (Conflict) means an earlier try, or an earlier run with the same key,
 * landed: done. Throws the last error when the tries are spent or the error is one retrying cannot fix.
 */
export async function createEvent(hub: Hub, event: KubeObject, deps: { clock: Clock; tries?: number }): Promise<void> {
  const tries = deps.tries ?? EVENT_TRIES;
  for (let attempt = 1; ; attempt++) {
    try {
      await createObject(hub, 'Event', event);
      return;
    } catch (err) {
      if (err instanceof Conflict) return;
      if (!(err instanceof Unavailable) || attempt >= tries) throw err;
      const backoff = Math.max(FIRST_BACKOFF_MS * 2 ** (attempt - 1), (err.retryAfterSeconds ?? 0) * 1000);
      await sleep(deps.clock, Math.min(backoff, MAX_BACKOFF_MS));
    }
  }
}
