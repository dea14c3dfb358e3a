import { isNotFound, R, type KubeClient, type ApiResource } from '../client/index.js';
import { type Obj, A, L } from './context.js';
import { canonicalJson } from './names.js';

const SKIPPED_CONFIGMAPS = new Set(['kube-root-ca.crt', 'openshift-service-ca.crt']);

/** Hive clears these before creating the copy on the destination. */
function stripped(obj: Obj): Obj {
  const {
    uid: _u,
    resourceVersion: _r,
    generation: _g,
    creationTimestamp: _c,
    ownerReferences: _o,
    managedFields: _m,
    deletionTimestamp: _d,
    deletionGracePeriodSeconds: _dg,
    selfLink: _s,
    ...metadata
  } = obj.metadata;
  return { ...obj, metadata };
}

const comparable = (o: Obj) =>
  canonicalJson({
    ...o,
    metadata: { labels: o.metadata.labels, annotations: o.metadata.annotations },
    status: undefined,
  });

/** Creates the object on the destination; an existing, different copy is deleted and re-created. */
async function copyObject(dest: KubeClient, r: ApiResource, obj: Obj) {
  const copy = stripped(obj);
  const existing = await dest.tryGet(r, copy.metadata.namespace, copy.metadata.name);
  if (existing) {
    if (comparable(stripped(existing)) === comparable(copy)) return;
    await dest.delete(r, copy.metadata.namespace, copy.metadata.name);
  }
  await dest.create(r, copy);
}

async function listIfServed(src: KubeClient, r: ApiResource, ns: string): Promise<Obj[]> {
  try {
    return (await src.list(r, ns)).items;
  } catch (e) {
    if (isNotFound(e)) return [];
    throw e;
  }
}

/**
 * Copy step of clusterrelocate (REFERENCE §6 step 5): the namespace, every Secret (minus service-account
 * tokens and what they own), ConfigMap (minus the injected CA bundles), MachinePool, SyncSet and
 * SyncIdentityProvider in the CD's namespace, the DNSZone marked incoming, and the CD last, status cleared.
 */
export async function copyClusterToDestination(src: KubeClient, dest: KubeClient, cd: Obj, relocateName: string) {
  const ns: string = cd.metadata.namespace;
  try {
    await dest.create(R.namespace, { metadata: { name: ns } });
  } catch (e: any) {
    if (e?.reason !== 'AlreadyExists') throw e;
  }
  const secrets = await listIfServed(src, R.secret, ns);
  const tokenUids = new Set(
    secrets.filter((s) => s.type === 'kubernetes.io/service-account-token').map((s) => s.metadata.uid),
  );
  for (const s of secrets) {
    if (tokenUids.has(s.metadata.uid)) continue;
    if ((s.metadata.ownerReferences ?? []).some((o: any) => tokenUids.has(o.uid))) continue;
    await copyObject(dest, R.secret, s);
  }
  for (const cm of await listIfServed(src, R.configMap, ns)) {
    if (!SKIPPED_CONFIGMAPS.has(cm.metadata.name)) await copyObject(dest, R.configMap, cm);
  }
  for (const r of [R.machinePool, R.syncSet, R.syncIdentityProvider]) {
    for (const o of await listIfServed(src, r, ns)) await copyObject(dest, r, o);
  }
  for (const zone of await listIfServed(src, R.dnsZone, ns)) {
    if (zone.metadata.labels?.[L.cdName] !== cd.metadata.name) continue;
    const annotations = { ...(zone.metadata.annotations ?? {}), [A.relocate]: `${relocateName}/incoming` };
    await copyObject(dest, R.dnsZone, { ...zone, metadata: { ...zone.metadata, annotations }, status: undefined });
  }
  const annotations = { ...(cd.metadata.annotations ?? {}), [A.relocate]: `${relocateName}/incoming` };
  const copy = stripped({ ...cd, metadata: { ...cd.metadata, annotations } });
  delete copy.status;
  await dest.create(R.clusterDeployment, copy);
}
