// Every action Beekeeper takes on a ClusterDeployment leaves two traces: a Kubernetes Event on the object (Hive
// emits none, so `kubectl describe cd` shows what Beekeeper did) and a structured log line.
import type { HiveStore, KubeEvent, ObjectRef } from '../ports.js';
import type { ServiceLog } from './deps.js';

export async function audit(
  store: HiveStore,
  log: ServiceLog,
  ref: ObjectRef,
  event: KubeEvent,
  fields: object = {},
): Promise<void> {
  const line = {
    hub: ref.hub,
    namespace: ref.namespace,
    name: ref.name,
    action: event.action,
    reason: event.reason,
    ...fields,
  };
  if (event.type === 'Warning') log.warn(line, event.message);
  else log.info(line, event.message);
  await store.recordEvent('ClusterDeployment', ref, event);
}
