// The up-front write of a create (intent first, issue 9): the namespace when asked for, the inline credential
// Secrets (their values never enter a job payload or Redis), the install-config Secret and the ClusterDeployment,
// owning the Secrets made for it. When the request answers 202 the cluster exists for Hive to install; the job
// only follows. The request writes all of it or nothing: a failure part-way removes what this request made, and
// only that.
import { Conflict } from '../../hive/errors.js';
import type { ClusterDeployment, Secret } from '../../hive/types.js';
import type { HiveStore, KindName, KubeObject, ObjectRef, ServiceLog } from '../ports.js';
import { inlineSecrets, installConfigSecret, isSecretFor, type CreatePlan } from './build-objects.js';
import type { CreateClusterRequest } from './create-request.js';

const isCode = (err: unknown, code: string) => (err as { code?: string })?.code === code;

/** Writes everything and answers the ClusterDeployment's uid, or removes what it made and throws. */
export async function writeCreate(
  deps: { store: HiveStore; log: ServiceLog },
  req: CreateClusterRequest,
  plan: CreatePlan,
  namespaceExists: boolean,
): Promise<{ uid: string }> {
  const { store, log } = deps;
  const made: Array<{ kind: KindName; ref: ObjectRef; uid?: string }> = [];
  const undo = async () => {
    for (const { kind, ref, uid } of made.splice(0).reverse()) {
      // The uid precondition: an object someone recreated under the same name in the meantime is theirs.
      await store.delete(kind, ref, uid ? { uid } : {}).catch((err: unknown) => {
        if (!isCode(err, 'NotFound'))
          log.warn({ err, kind, ...ref }, 'could not remove an object of a failed cluster create');
      });
    }
  };
  try {
    if (!namespaceExists) {
      try {
        const ns = await store.create<KubeObject>('Namespace', req.hub, {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: req.namespace },
        });
        made.push({
          kind: 'Namespace',
          ref: { hub: req.hub, name: req.namespace },
          ...(ns.metadata.uid ? { uid: ns.metadata.uid } : {}),
        });
      } catch (err) {
        if (!isCode(err, 'Conflict')) throw err;
      }
    }
    for (const secret of [...inlineSecrets(req), installConfigSecret(plan)]) {
      const ref = { hub: req.hub, namespace: req.namespace, name: secret.metadata.name };
      try {
        const created = await store.create('Secret', req.hub, secret);
        made.push({ kind: 'Secret', ref, ...(created.metadata.uid ? { uid: created.metadata.uid } : {}) });
      } catch (err) {
        if (!isCode(err, 'Conflict')) throw err;
        const existing = await store.get<Secret>('Secret', ref);
        if (!existing || !isSecretFor(existing, req.name)) {
          throw new Conflict(
            `Secret ${req.namespace}/${secret.metadata.name} already exists and is not Beekeeper's for this cluster`,
          );
        }
        // Left by an earlier attempt for this very cluster: it takes this request's values.
        await store.mergePatch(
          'Secret',
          ref,
          { data: secret.data ?? {} },
          { resourceVersion: existing.metadata.resourceVersion },
        );
      }
    }
    let cd: ClusterDeployment;
    try {
      cd = await store.create<ClusterDeployment>('ClusterDeployment', req.hub, plan.clusterDeployment);
    } catch (err) {
      if (isCode(err, 'Conflict'))
        throw new Conflict(`ClusterDeployment ${req.namespace}/${req.name} already exists on hub ${req.hub}`);
      throw err;
    }
    made.push({
      kind: 'ClusterDeployment',
      ref: { hub: req.hub, namespace: req.namespace, name: req.name },
      ...(cd.metadata.uid ? { uid: cd.metadata.uid } : {}),
    });
    // The CD owns the Secrets made for it, so deleting the cluster cleans them up (garbage collection).
    const owner = {
      apiVersion: cd.apiVersion ?? 'hive.openshift.io/v1',
      kind: 'ClusterDeployment',
      name: cd.metadata.name,
      uid: cd.metadata.uid!,
      blockOwnerDeletion: false,
    };
    for (const name of plan.ownedSecrets) {
      await store.mergePatch(
        'Secret',
        { hub: req.hub, namespace: req.namespace, name },
        { metadata: { ownerReferences: [owner] } },
      );
    }
    return { uid: cd.metadata.uid! };
  } catch (err) {
    await undo();
    throw err;
  }
}
