// A self-contained kubeconfig for one configured hub, for a process elsewhere to use: Hive's ClusterRelocate
// controller on the source hub reads the destination's kubeconfig from a Secret (REFERENCE.md §6), so everything
// Beekeeper's own connection refers to by path (CA, client certificate and key, a service account's token file) is
// inlined, and only the context in use is kept. Exec and auth-provider plugins run on Beekeeper's machine, not on
// the hub: such a hub cannot be handed over, and the error says so. A cluster's proxy-url is carried: the hub's
// server is then only known to be reachable through that proxy, client-go (Hive) honours proxy-url as client-node
// does, and dropping it would send Hive straight at an address the proxy stands in front of; a source hub that
// cannot reach the proxy fails the move in Hive's own terms (docs/relocations.md). The result holds credentials (a
// proxy-url may too): never log it.
import { readFileSync } from 'node:fs';
import { loadKubeConfig, type HubConnection } from './kubeconfig.js';

const b64File = (path: string) => readFileSync(path).toString('base64');

export function exportKubeconfig(hub: HubConnection): string {
  const kc = loadKubeConfig(hub);
  const cluster = kc.getCurrentCluster()!;
  const user = kc.getCurrentUser();
  if (!user) throw new Error(`hub ${hub.name}: the kubeconfig has no user for its current context`);
  if (user.exec) throw new Error(`hub ${hub.name}: an exec credential plugin cannot be handed to Hive`);
  let token = user.token;
  const provider = user.authProvider as { name?: string; config?: Record<string, string> } | undefined;
  if (!token && provider?.name === 'tokenFile' && provider.config?.tokenFile)
    token = readFileSync(provider.config.tokenFile, 'utf8').trim();
  else if (provider) throw new Error(`hub ${hub.name}: an auth-provider plugin cannot be handed to Hive`);
  const caData = cluster.caData ?? (cluster.caFile ? b64File(cluster.caFile) : undefined);
  const certData = user.certData ?? (user.certFile ? b64File(user.certFile) : undefined);
  const keyData = user.keyData ?? (user.keyFile ? b64File(user.keyFile) : undefined);
  const name = hub.name;
  const imp = kc.impersonation.get(user.name);
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name,
        cluster: {
          server: cluster.server,
          ...(caData ? { 'certificate-authority-data': caData } : {}),
          ...(cluster.skipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
          ...(cluster.tlsServerName ? { 'tls-server-name': cluster.tlsServerName } : {}),
          ...(cluster.proxyUrl ? { 'proxy-url': cluster.proxyUrl } : {}),
        },
      },
    ],
    users: [
      {
        name,
        user: {
          ...(token ? { token } : {}),
          ...(certData ? { 'client-certificate-data': certData } : {}),
          ...(keyData ? { 'client-key-data': keyData } : {}),
          ...(user.username ? { username: user.username } : {}),
          ...(user.password ? { password: user.password } : {}),
          // The identity Beekeeper acts as: without it, Hive would act with the whole of the credentials' rights.
          ...(user.impersonateUser ? { as: user.impersonateUser } : {}),
          ...(imp?.uid ? { 'as-uid': imp.uid } : {}),
          ...(imp?.groups.length ? { 'as-groups': imp.groups } : {}),
          ...(imp && Object.keys(imp.extra).length ? { 'as-user-extra': imp.extra } : {}),
        },
      },
    ],
    contexts: [{ name, context: { cluster: name, user: name } }],
    'current-context': name,
  };
  // JSON is YAML: the kubeconfig readers (client-go, the simulator) accept it.
  return JSON.stringify(config);
}
