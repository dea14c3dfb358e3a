// The inline credentials of a create, written during the request so that their values never enter a job payload
// or Redis. The request either leaves all of them for its job or none: a failure part-way (the hub refuses or is
// unavailable, the job cannot be queued) removes what this request made, and only that.
import { Conflict } from '../../hive/errors.js';
import type { Secret } from '../../hive/types.js';
import type { HiveStore, KindName, KubeObject, ObjectRef, ServiceLog } from '../ports.js';
import { inlineSecrets, isSecretFor } from './build-objects.js';
import type { CreateClusterRequest } from './create-request.js';

const isCode = (err: unknown, code: string) => (err as { code?: string })?.code === code;

export interface InlineWrites {
  /** Remove what the request made (never an object that was there before it). */
  undo(): Promise<void>;
}

export async function writeInlineSecrets(deps: { store: HiveStore; log: ServiceLog }, req: CreateClusterRequest, namespaceExists: boolean): Promise<InlineWrites> {
  const { store, log } = deps;
  const made: Array<{ kind: KindName; ref: ObjectRef; uid?: string }> = [];
  const undo = async () => {
    for (const { kind, ref, uid } of made.splice(0).reverse()) {
      // The uid precondition: an object someone recreated under the same name in the meantime is theirs.
      await store.delete(kind, ref, uid ? { uid } : {}).catch((err: unknown) => {
        if (!isCode(err, 'NotFound')) log.warn({ err, kind, ...ref }, 'could not remove an object of a failed cluster create');
      });
    }
  };
  const secrets = inlineSecrets(req);
  if (secrets.length === 0) return { undo };
  try {
    if (!namespaceExists) {
      try {
        const ns = await store.create<KubeObject>('Namespace', req.hub, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: req.namespace } });
        made.push({ kind: 'Namespace', ref: { hub: req.hub, name: req.namespace }, ...(ns.metadata.uid ? { uid: ns.metadata.uid } : {}) });
      } catch (err) {
        if (!isCode(err, 'Conflict')) throw err;
      }
    }
    for (const secret of secrets) {
      const ref = { hub: req.hub, namespace: req.namespace, name: secret.metadata.name };
      try {
        const created = await store.create('Secret', req.hub, secret);
        made.push({ kind: 'Secret', ref, ...(created.metadata.uid ? { uid: created.metadata.uid } : {}) });
      } catch (err) {
        if (!isCode(err, 'Conflict')) throw err;
        const existing = await store.get<Secret>('Secret', ref);
        if (!existing || !isSecretFor(existing, req.name)) {
          throw new Conflict(`Secret ${req.namespace}/${secret.metadata.name} already exists and is not Beekeeper's for this cluster`);
        }
        // Left by an earlier attempt for this very cluster: it takes this request's values.
        await store.mergePatch('Secret', ref, { data: secret.data ?? {} }, { resourceVersion: existing.metadata.resourceVersion });
      }
    }
  } catch (err) {
    await undo();
    throw err;
  }
  return { undo };
}
