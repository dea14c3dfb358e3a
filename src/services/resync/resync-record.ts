// The last resync, where anyone can look: a ConfigMap in Beekeeper's namespace on the state hub (`kubectl get
// configmap beekeeper-resync -n beekeeper -o yaml`, or GET /v1/resync). In Kubernetes rather than Redis so that it
// still says when the resync last ran while Redis is down, which is when it matters.
import { NotFound } from '../../hive/errors.js';
import type { HiveStore, KubeObject, StateLocation } from '../ports.js';

export const RESYNC_CONFIGMAP = 'beekeeper-resync';

export interface ResyncRecord {
  /** The slot run: its start (ISO), or `recovery-<ISO>` for the run after a Redis outage. */
  slot: string;
  trigger: 'schedule' | 'recovery' | 'manual';
  startedAt: string;
  finishedAt: string;
  /** The scheduler replica that ran it (its host name). */
  instance: string;
  /** Repairs by kind; empty when nothing was missing. */
  repairs: Record<string, number>;
  /** Repairers that failed this run, with why; the next run tries again. */
  failed?: Record<string, string>;
}

type ConfigMap = KubeObject & { data?: Record<string, string> };

export async function writeResyncRecord(
  deps: { store: HiveStore } & StateLocation,
  record: ResyncRecord,
): Promise<void> {
  const ref = { hub: deps.stateHub, namespace: deps.stateNamespace, name: RESYNC_CONFIGMAP };
  const data = { lastResync: JSON.stringify(record) };
  try {
    await deps.store.mergePatch('ConfigMap', ref, { data });
  } catch (err) {
    if (!(err instanceof NotFound)) throw err;
    await deps.store.create<ConfigMap>('ConfigMap', deps.stateHub, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: RESYNC_CONFIGMAP,
        namespace: deps.stateNamespace,
        labels: { 'app.kubernetes.io/managed-by': 'beekeeper' },
      },
      data,
    });
  }
}

export async function readResyncRecord(deps: { store: HiveStore } & StateLocation): Promise<ResyncRecord | undefined> {
  const cm = await deps.store.get<ConfigMap>('ConfigMap', {
    hub: deps.stateHub,
    namespace: deps.stateNamespace,
    name: RESYNC_CONFIGMAP,
  });
  const raw = cm?.data?.lastResync;
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as ResyncRecord;
  } catch {
    return undefined;
  }
}
