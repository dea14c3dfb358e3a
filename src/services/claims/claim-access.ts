// The claimed cluster's kubeconfig and admin credentials, from the Secrets Hive names in
// spec.clusterMetadata (REFERENCE.md §5, "What the claimant sees"). Read live, returned to the caller, never logged.
import { SECRET_KEYS } from '../../hive/constants.js';
import { Conflict } from '../../hive/errors.js';
import type { Secret } from '../../hive/types.js';
import type { ClaimDeps } from './claim-create.js';
import { buildClaimView, claimCluster, loadClaim } from './claim-view.js';
import type { NamespacedRef } from '../ports.js';
import { refId } from '../../hive/object-ref.js';

async function clusterOf(deps: ClaimDeps, ref: NamespacedRef) {
  const claim = await loadClaim(deps.store, ref);
  const cd = claimCluster(deps.store, ref.hub, claim);
  const view = buildClaimView(deps, ref.hub, claim);
  if (!cd || view.phase === 'Releasing' || view.phase === 'ClusterLost') {
    throw new Conflict(`claim ${refId(ref)} has no cluster to connect to (${view.phase}: ${view.message})`);
  }
  return { cd, view };
}

async function secretData(
  deps: ClaimDeps,
  hub: string,
  namespace: string,
  name: string | undefined,
  what: string,
): Promise<Record<string, string>> {
  const secret = name ? await deps.store.get<Secret>('Secret', { hub, namespace, name }) : undefined;
  if (!secret)
    throw new Conflict(`the cluster's ${what} Secret is not there yet; Hive writes it when the install completes`);
  return Object.fromEntries(
    Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
  );
}

export async function claimKubeconfig(deps: ClaimDeps, ref: NamespacedRef): Promise<string> {
  const { cd } = await clusterOf(deps, ref);
  const data = await secretData(
    deps,
    ref.hub,
    cd.metadata.namespace!,
    cd.spec.clusterMetadata?.adminKubeconfigSecretRef?.name,
    'admin kubeconfig',
  );
  const text = data[SECRET_KEYS.kubeconfig] ?? data[SECRET_KEYS.rawKubeconfig];
  if (!text) throw new Conflict("the cluster's admin kubeconfig Secret has no kubeconfig key");
  return text;
}

export async function claimCredentials(deps: ClaimDeps, ref: NamespacedRef) {
  const { cd, view } = await clusterOf(deps, ref);
  const data = await secretData(
    deps,
    ref.hub,
    cd.metadata.namespace!,
    cd.spec.clusterMetadata?.adminPasswordSecretRef?.name,
    'admin password',
  );
  return {
    claim: view.id,
    cluster: view.cluster?.id,
    apiURL: cd.status?.apiURL,
    webConsoleURL: cd.status?.webConsoleURL,
    username: data[SECRET_KEYS.username],
    password: data[SECRET_KEYS.password],
  };
}
