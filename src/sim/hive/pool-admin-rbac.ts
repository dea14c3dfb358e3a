import { R } from '../client/index.js';
import { type HiveContext, type Obj, L, isDeleting } from './context.js';
import { writeObject } from './writes.js';

const CLUSTER_ROLE = 'hive-cluster-pool-admin';
const BINDING = 'hive-cluster-pool-admin-binding';

/**
 * Pool-admin RBAC (REFERENCE §4.3): subjects of RoleBindings in the pool's namespace that grant ClusterRole
 * hive-cluster-pool-admin are mirrored into a RoleBinding hive-cluster-pool-admin-binding in every namespace
 * labelled with the pool's name.
 */
export async function reconcilePoolAdminRbac(ctx: HiveContext, pool: Obj): Promise<void> {
  const bindings = (await ctx.client.list(R.roleBinding, pool.metadata.namespace)).items;
  const subjects = bindings
    .filter((b) => b.roleRef?.kind === 'ClusterRole' && b.roleRef?.name === CLUSTER_ROLE)
    .flatMap((b) => b.subjects ?? []);
  if (subjects.length === 0) return;
  const namespaces = ctx.informers.namespaces
    .list()
    .filter((ns) => ns.metadata.labels?.[L.namespacePool] === pool.metadata.name && !isDeleting(ns));
  for (const ns of namespaces) {
    const name = ns.metadata.name;
    const desired = {
      metadata: { name: BINDING, namespace: name },
      subjects,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: CLUSTER_ROLE },
    };
    const existing = await ctx.client.tryGet(R.roleBinding, name, BINDING);
    if (!existing) await ctx.client.create(R.roleBinding, desired);
    else await writeObject(ctx, R.roleBinding, existing, { ...existing, subjects });
  }
}
