// Bulk object creation straight through the API double: adopted, installed clusters, many at a time.
import { mapLimit } from '../src/map-limit.js';
import type { KubeClient } from '../src/sim/client/index.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** An adopted, installed ClusterDeployment (Hive takes it as is); `fake` makes Hive switch power at once. */
export function adoptedCd(
  namespace: string,
  name: string,
  opts: { fake?: boolean; labels?: Record<string, string> } = {},
) {
  return {
    apiVersion: 'hive.openshift.io/v1',
    kind: 'ClusterDeployment',
    metadata: {
      name,
      namespace,
      labels: opts.labels ?? {},
      annotations: opts.fake ? { 'hive.openshift.io/fake-cluster': 'true' } : {},
    },
    spec: {
      clusterName: name,
      baseDomain: 'example.com',
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
      installed: true,
      clusterMetadata: {
        clusterID: `${name}-id`,
        infraID: `${name}-infra`,
        adminKubeconfigSecretRef: { name: `${name}-kubeconfig` },
      },
    },
  };
}

/** Creates `count` adopted clusters in `namespace` straight through the API double (32 requests in flight). */
export async function adoptMany(
  client: KubeClient,
  namespace: string,
  count: number,
  opts: { fake?: boolean; labels?: Record<string, string>; kubeconfigs?: boolean } = {},
): Promise<string[]> {
  const { R } = await import('../src/sim/client/index.js');
  await client.create(R.namespace, { metadata: { name: namespace } });
  await client.create(R.secret, {
    metadata: { name: 'aws-creds', namespace },
    data: { aws_access_key_id: b64('x'), aws_secret_access_key: b64('y') },
  });
  const names = Array.from({ length: count }, (_, i) => `cd-${String(i).padStart(5, '0')}`);
  await mapLimit(names, 32, async (name) => {
    if (opts.kubeconfigs !== false) {
      await client.create(R.secret, {
        metadata: { name: `${name}-kubeconfig`, namespace },
        data: { kubeconfig: b64('apiVersion: v1\nkind: Config\n') },
      });
    }
    await client.create(R.clusterDeployment, adoptedCd(namespace, name, opts));
  });
  return names;
}
