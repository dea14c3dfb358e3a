import { R } from '../client/index.js';
import type { HiveContext, Obj } from './context.js';

/** apiURL comes from the admin kubeconfig; the console URL from the spoke's console route. */
export async function clusterUrls(ctx: HiveContext, cd: Obj): Promise<{ apiURL: string; webConsoleURL: string }> {
  const domain = `${cd.spec.clusterName}.${cd.spec.baseDomain}`;
  let apiURL = `https://api.${domain}:6443`;
  const secretName = cd.spec.clusterMetadata?.adminKubeconfigSecretRef?.name;
  if (secretName) {
    const secret = await ctx.client.tryGet(R.secret, cd.metadata.namespace, secretName);
    const text = secret?.data?.kubeconfig ? Buffer.from(secret.data.kubeconfig, 'base64').toString('utf8') : '';
    const m = /server:\s*(\S+)/.exec(text);
    if (m) apiURL = m[1]!;
  }
  return { apiURL, webConsoleURL: `https://console-openshift-console.apps.${domain}` };
}
