// Beekeeper's audit trail on the object itself: a core/v1 Event, shaped like client-go's recorder makes them
// (name `<object>.<hex nanoseconds>`, source and reportingComponent set), so `kubectl describe` shows it.
import { hostname } from 'node:os';
import type { Clock } from '../clock.js';
import type { KindName, KubeEvent, KubeObject, ObjectRef } from '../services/ports.js';
import { apiVersionOf } from './kinds.js';

const COMPONENT = 'beekeeper';
/** events.k8s.io caps a note at 1 kB; stay under it for either API. */
const MAX_MESSAGE = 1024;

/** Kubernetes times are RFC 3339 in whole seconds. */
export const kubeTime = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export function buildEvent(kind: KindName, ref: ObjectRef, target: KubeObject | undefined, event: KubeEvent, clock: Clock): KubeObject {
  const now = clock.now();
  const nanos = BigInt(now) * 1_000_000n + BigInt(Math.floor(Math.random() * 1_000_000));
  const namespace = ref.namespace ?? 'default';
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${ref.name}.${nanos.toString(16)}`, namespace },
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
