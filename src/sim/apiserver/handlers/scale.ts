// The /scale subresource of custom resources: an autoscaling/v1 Scale projected from specReplicasPath and
// statusReplicasPath (ClusterPool and MachinePool declare one).
import type { ResourceType } from '../types.js';

const get = (obj: any, path: string) =>
  path
    .replace(/^\./, '')
    .split('.')
    .reduce((o, k) => o?.[k], obj);
function set(obj: any, path: string, value: unknown) {
  const keys = path.replace(/^\./, '').split('.');
  let cur = obj;
  for (const k of keys.slice(0, -1)) cur = cur[k] ??= {};
  cur[keys[keys.length - 1]!] = value;
}

export function scaleFromObject(type: ResourceType, obj: any): any {
  const s = type.scale!;
  const meta = obj.metadata;
  const status: any = { replicas: get(obj, s.statusReplicasPath) ?? 0 };
  if (s.labelSelectorPath && get(obj, s.labelSelectorPath) !== undefined)
    status.selector = get(obj, s.labelSelectorPath);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec: { replicas: get(obj, s.specReplicasPath) ?? 0 },
    status,
  };
}

/** Writes a (patched) Scale back into a copy of the object; only spec.replicas is taken from it. */
export function scaleIntoObject(type: ResourceType, current: any, scale: any): any {
  const next = structuredClone(current);
  if (scale?.metadata?.resourceVersion) next.metadata.resourceVersion = scale.metadata.resourceVersion;
  set(next, type.scale!.specReplicasPath, scale?.spec?.replicas ?? 0);
  return next;
}
