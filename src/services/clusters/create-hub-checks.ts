// What a create request is checked for on the hub itself, after its own fields (create-request.ts) and before
// anything is written: the hub, an existing cluster, the namespace, Secrets Beekeeper would write or is referred to,
// the ClusterImageSet.
import { Conflict, type FieldIssue } from '../../hive/errors.js';
import type { ClusterImageSet, Secret } from '../../hive/types.js';
import { isSecretFor, referencedSecrets, writtenSecretNames } from './build-objects.js';
import type { CreateClusterRequest } from './create-request.js';
import type { ClusterServiceDeps } from './deps.js';

/**
 * Checks only a live look at the hub can make, for the fields that are valid so far; added to `issues` so the
 * caller hears about every problem at once. An existing cluster is a 409 of its own.
 */
export async function checkAgainstHub(
  store: ClusterServiceDeps['store'],
  req: CreateClusterRequest,
  issues: FieldIssue[],
): Promise<{ namespaceExists: boolean }> {
  const bad = (field: string) => issues.some((i) => i.field === field || i.field.startsWith(`${field}.`));
  if (!store.hubNames().includes(req.hub)) {
    if (!bad('hub'))
      issues.push({ field: 'hub', reason: `unknown hub "${req.hub}"; configured: ${store.hubNames().join(', ')}` });
    return { namespaceExists: false };
  }
  if (bad('namespace')) return { namespaceExists: false };
  const ref = { hub: req.hub, namespace: req.namespace, name: req.name };
  if (!bad('name') && (store.cached('ClusterDeployment', ref) ?? (await store.get('ClusterDeployment', ref)))) {
    throw new Conflict(`ClusterDeployment ${req.namespace}/${req.name} already exists on hub ${req.hub}`);
  }
  const ns = await store.get('Namespace', { hub: req.hub, name: req.namespace });
  if (ns?.metadata.deletionTimestamp) issues.push({ field: 'namespace', reason: 'the namespace is being deleted' });
  if (!ns && !req.createNamespace)
    issues.push({
      field: 'namespace',
      reason: `does not exist on hub ${req.hub}; set createNamespace: true to create it`,
    });
  // Checked before anything is written, so a request refused for it leaves nothing behind; Beekeeper never
  // overwrites or removes a Secret it did not write for this cluster.
  if (ns && !bad('name')) {
    for (const name of writtenSecretNames(req)) {
      const secret = await store.get<Secret>('Secret', { hub: req.hub, namespace: req.namespace, name });
      if (secret && !isSecretFor(secret, req.name)) {
        throw new Conflict(
          `Secret ${req.namespace}/${name} already exists and is not Beekeeper's for this cluster; Beekeeper leaves it alone ` +
            '(choose another cluster name, or refer to an existing Secret with pullSecretRef or credentialsSecretRef)',
        );
      }
    }
  }
  if (req.imageSet && !bad('imageSet')) {
    const imageSet =
      store.cached<ClusterImageSet>('ClusterImageSet', { hub: req.hub, name: req.imageSet }) ??
      (await store.get('ClusterImageSet', { hub: req.hub, name: req.imageSet }));
    if (!imageSet)
      issues.push({ field: 'imageSet', reason: `no ClusterImageSet named ${req.imageSet} on hub ${req.hub}` });
  }
  for (const { field, name } of referencedSecrets(req)) {
    if (bad(field)) continue;
    const secret = ns ? await store.get('Secret', { hub: req.hub, namespace: req.namespace, name }) : undefined;
    if (!secret) issues.push({ field, reason: `no Secret named ${name} in namespace ${req.namespace}` });
  }
  return { namespaceExists: !!ns };
}
