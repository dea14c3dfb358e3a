// Bulk object creation straight through the API double: adopted, installed clusters, many at a time.
import { mapLimit } from '../src/map-limit.js';
import type { KubeClient } from '../src/sim/client/index.js';
import { adoptedClusterDeployment, awsCredsSecret, kubeconfigSecret } from '../test/support/adopted-cluster.js';

/** Creates `count` adopted clusters in `namespace` straight through the API double (32 requests in flight). */
export async function adoptMany(
  client: KubeClient,
  namespace: string,
  count: number,
  opts: { fake?: boolean; labels?: Record<string, string>; kubeconfigs?: boolean } = {},
): Promise<string[]> {
  const { R } = await import('../src/sim/client/index.js');
  await client.create(R.namespace, { metadata: { name: namespace } });
  await client.create(R.secret, awsCredsSecret(namespace));
  const names = Array.from({ length: count }, (_, i) => `cd-${String(i).padStart(5, '0')}`);
  await mapLimit(names, 32, async (name) => {
    if (opts.kubeconfigs !== false) {
      await client.create(R.secret, kubeconfigSecret(namespace, `${name}-kubeconfig`));
    }
    await client.create(R.clusterDeployment, adoptedClusterDeployment(namespace, name, opts));
  });
  return names;
}
