import { parse as parseYaml } from 'yaml';
import type { KubeTarget } from './transport.js';

/** The current context of a kubeconfig (YAML or JSON text) as a KubeTarget; token auth only. */
export function targetFromKubeconfig(text: string, contextName?: string): KubeTarget {
  const doc = parseYaml(text) ?? {};
  const ctxName = contextName ?? doc['current-context'];
  const context = (doc.contexts ?? []).find((c: any) => c.name === ctxName)?.context;
  if (!context) throw new Error(`kubeconfig has no context ${JSON.stringify(ctxName)}`);
  const cluster = (doc.clusters ?? []).find((c: any) => c.name === context.cluster)?.cluster;
  if (!cluster?.server) throw new Error(`kubeconfig context ${ctxName} names no cluster with a server`);
  const user = (doc.users ?? []).find((u: any) => u.name === context.user)?.user ?? {};
  const ca = cluster['certificate-authority-data']
    ? Buffer.from(cluster['certificate-authority-data'], 'base64').toString('utf8')
    : undefined;
  return {
    server: cluster.server,
    token: user.token,
    insecureSkipTLSVerify: Boolean(cluster['insecure-skip-tls-verify']),
    ca,
  };
}
