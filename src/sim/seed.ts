import { stringify as toYaml } from 'yaml';
import { R, type KubeClient, type ResourceRef } from './client/index.js';

export type SeedName = 'demo' | 'none';

const b64 = (s: string) => Buffer.from(s).toString('base64');

export const DEMO_IMAGE_SETS = [
  { name: 'openshift-v4.16.3', releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64' },
  { name: 'openshift-v4.17.9', releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.9-x86_64' },
];
export const DEMO_NAMESPACE = 'demo';
export const DEMO_POOL = 'demo-aws';

/**
 * `--seed demo`: what a newcomer needs to claim a cluster at once: ClusterImageSets, a `demo` namespace with a
 * pull secret, AWS credentials and an install-config template, and a small AWS pool (size 2, one kept running).
 * The credentials are obviously fake; nothing here reaches a cloud.
 */
export async function seedHub(client: KubeClient, seed: SeedName): Promise<void> {
  if (seed === 'none') return;
  for (const s of DEMO_IMAGE_SETS) {
    await createIfMissing(client, R.clusterImageSet, { metadata: { name: s.name }, spec: { releaseImage: s.releaseImage } });
  }
  await createIfMissing(client, R.namespace, { metadata: { name: DEMO_NAMESPACE } });
  const ns = DEMO_NAMESPACE;
  await createIfMissing(client, R.secret, {
    metadata: { name: 'pull-secret', namespace: ns }, type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': b64(JSON.stringify({ auths: { 'quay.io': { auth: b64('demo:not-a-real-token'), email: 'demo@example.com' } } })) },
  });
  await createIfMissing(client, R.secret, {
    metadata: { name: 'aws-creds', namespace: ns }, type: 'Opaque',
    data: { aws_access_key_id: b64('AKIASIMULATEDDEMO000'), aws_secret_access_key: b64('simulated-demo-secret-key') },
  });
  const installConfig = {
    apiVersion: 'v1',
    metadata: { name: 'template' },
    baseDomain: 'demo.example.com',
    controlPlane: { name: 'master', replicas: 3, platform: { aws: { type: 'm6a.xlarge' } } },
    compute: [{ name: 'worker', replicas: 3, platform: { aws: { type: 'm6a.xlarge' } } }],
    networking: { networkType: 'OVNKubernetes', machineNetwork: [{ cidr: '10.0.0.0/16' }] },
    platform: { aws: { region: 'us-east-1' } },
  };
  await createIfMissing(client, R.secret, {
    metadata: { name: 'install-config-template', namespace: ns }, type: 'Opaque',
    data: { 'install-config.yaml': b64(toYaml(installConfig)) },
  });
  await createIfMissing(client, R.clusterPool, {
    metadata: { name: DEMO_POOL, namespace: ns },
    spec: {
      baseDomain: 'demo.example.com',
      imageSetRef: { name: DEMO_IMAGE_SETS[0]!.name },
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
      pullSecretRef: { name: 'pull-secret' },
      installConfigSecretTemplateRef: { name: 'install-config-template' },
      size: 2,
      runningCount: 1,
      claimLifetime: { default: '8h', maximum: '24h' },
    },
  });
}

async function createIfMissing(client: KubeClient, r: ResourceRef, obj: Record<string, any>) {
  try {
    await client.create(r, obj as any);
  } catch (e: any) {
    if (e?.reason !== 'AlreadyExists') throw e;
  }
}
