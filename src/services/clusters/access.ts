// GET .../kubeconfig and .../credentials: read from the Secrets Hive writes once a cluster is installed
// (spec.clusterMetadata.adminKubeconfigSecretRef / adminPasswordSecretRef, REFERENCE.md §2.1). The values go to
// the caller only: never logged, never queued. The read itself is audited once, at the HTTP edge
// (src/http/audit-trail.ts), like every secret read.
import { SECRET_KEYS } from '../../hive/constants.js';
import { Conflict, NotFound } from '../../hive/errors.js';
import type { ClusterDeployment, Secret } from '../../hive/types.js';
import type { ObjectRef } from '../ports.js';
import { consoleUrls } from './cluster-summary.js';
import type { ClusterServiceDeps } from './deps.js';

export type AdminCredentials = { username: string; password: string; apiURL?: string } & ReturnType<typeof consoleUrls>;

const decode = (secret: Secret, key: string): string | undefined => {
  const b64 = secret.data?.[key];
  return b64 === undefined ? undefined : Buffer.from(b64, 'base64').toString('utf8');
};

async function readSecret(
  deps: ClusterServiceDeps,
  ref: ObjectRef,
  name: string | undefined,
  what: string,
): Promise<Secret> {
  if (!name) throw new Conflict(`no ${what} yet: Hive fills spec.clusterMetadata during install`);
  const secret = await deps.store.get<Secret>('Secret', { hub: ref.hub, namespace: ref.namespace, name });
  if (!secret) throw new NotFound(`the ${what} Secret ${name} does not exist`);
  return secret;
}

export async function adminKubeconfig(
  deps: ClusterServiceDeps,
  ref: ObjectRef,
  cd: ClusterDeployment,
): Promise<string> {
  const secret = await readSecret(
    deps,
    ref,
    cd.spec.clusterMetadata?.adminKubeconfigSecretRef?.name,
    'admin kubeconfig',
  );
  // `kubeconfig` carries Hive's injected CAs; `raw-kubeconfig` is the installer's original.
  const text = decode(secret, SECRET_KEYS.kubeconfig) ?? decode(secret, SECRET_KEYS.rawKubeconfig);
  if (!text) throw new NotFound(`Secret ${secret.metadata.name} has no kubeconfig key`);
  return text;
}

export async function adminCredentials(
  deps: ClusterServiceDeps,
  ref: ObjectRef,
  cd: ClusterDeployment,
): Promise<AdminCredentials> {
  const secret = await readSecret(deps, ref, cd.spec.clusterMetadata?.adminPasswordSecretRef?.name, 'admin password');
  const username = decode(secret, SECRET_KEYS.username);
  const password = decode(secret, SECRET_KEYS.password);
  if (username === undefined || password === undefined)
    throw new NotFound(`Secret ${secret.metadata.name} lacks username or password`);
  return {
    username,
    password,
    ...consoleUrls(cd),
    ...(cd.status?.apiURL ? { apiURL: cd.status.apiURL } : {}),
  };
}
