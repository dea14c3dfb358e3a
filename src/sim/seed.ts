import { stringify as toYaml } from 'yaml';
import { R, type KubeClient, type ApiResource } from './client/index.js';

export type SeedName = 'demo' | 'none';

const b64 = (s: string) => Buffer.from(s).toString('base64');

export const DEMO_IMAGE_SETS = [
  { name: 'openshift-v4.16.3', releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64' },
  { name: 'openshift-v4.17.9', releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.9-x86_64' },
];
export const DEMO_NAMESPACE = 'demo';
export const DEMO_POOL = 'demo-aws';
/** The pool the README's CI examples claim from: `--selector platform=aws,version=4.17,team=payments`. */
export const DEMO_PAYMENTS_POOL = 'payments-aws';
/** The cluster the README's schedule and expiry examples act on: `local/team-web/web-1`. */
export const DEMO_WEB_CLUSTER = { namespace: 'team-web', name: 'web-1' };
// Beekeeper's pool label for `team` in a claim selector (src/hive/pools/labels.ts); the simulator imports none
// of Beekeeper's own Hive logic, so the key is written out here.
const TEAM_LABEL = 'beekeeper.io/team';
const BASE_DOMAIN = 'demo.example.com';

/**
 * `--seed demo`: the world the README's examples run in, kept small because every cluster is a simulated install:
 * ClusterImageSets 4.16.3 and 4.17.9; namespace `demo` with a pull secret, AWS credentials and an install-config
 * template, the AWS pool `demo-aws` (4.16, size 2, one kept running) and the payments team's pool `payments-aws`
 * (4.17, size 1, running); namespace `team-web` with the standalone cluster `web-1` (labels env=dev, team=web,
 * delete-after 72h). The credentials are obviously fake; nothing here reaches a cloud.
 */
export async function seedHub(client: KubeClient, seed: SeedName): Promise<void> {
  if (seed === 'none') return;
  for (const s of DEMO_IMAGE_SETS) {
    await createIfMissing(client, R.clusterImageSet, {
      metadata: { name: s.name },
      spec: { releaseImage: s.releaseImage },
    });
  }
  const ns = DEMO_NAMESPACE;
  await createCredentials(client, ns);
  await createIfMissing(client, R.secret, installConfigSecret(ns, 'install-config-template', 'us-east-1'));
  const pool = (name: string, spec: Record<string, unknown>, labels?: Record<string, string>) =>
    createIfMissing(client, R.clusterPool, {
      metadata: { name, namespace: ns, ...(labels ? { labels } : {}) },
      spec: {
        baseDomain: BASE_DOMAIN,
        platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
        pullSecretRef: { name: 'pull-secret' },
        installConfigSecretTemplateRef: { name: 'install-config-template' },
        claimLifetime: { default: '8h', maximum: '24h' },
        ...spec,
      },
    });
  await pool(DEMO_POOL, { imageSetRef: { name: DEMO_IMAGE_SETS[0]!.name }, size: 2, runningCount: 1 });
  await pool(
    DEMO_PAYMENTS_POOL,
    { imageSetRef: { name: DEMO_IMAGE_SETS[1]!.name }, size: 1, runningCount: 1 },
    { [TEAM_LABEL]: 'payments' },
  );

  const web = DEMO_WEB_CLUSTER;
  await createCredentials(client, web.namespace);
  await createIfMissing(
    client,
    R.secret,
    installConfigSecret(web.namespace, `${web.name}-install-config`, 'eu-central-1', web.name),
  );
  await createIfMissing(client, R.clusterDeployment, {
    metadata: {
      name: web.name,
      namespace: web.namespace,
      labels: { env: 'dev', team: 'web' },
      annotations: { 'hive.openshift.io/delete-after': '72h' },
    },
    spec: {
      clusterName: web.name,
      baseDomain: BASE_DOMAIN,
      platform: { aws: { region: 'eu-central-1', credentialsSecretRef: { name: 'aws-creds' } } },
      pullSecretRef: { name: 'pull-secret' },
      provisioning: {
        installConfigSecretRef: { name: `${web.name}-install-config` },
        imageSetRef: { name: DEMO_IMAGE_SETS[0]!.name },
      },
      powerState: 'Running',
    },
  });
}

/** A namespace with the pull secret and AWS credentials every demo cluster uses. */
async function createCredentials(client: KubeClient, ns: string) {
  await createIfMissing(client, R.namespace, { metadata: { name: ns } });
  await createIfMissing(client, R.secret, {
    metadata: { name: 'pull-secret', namespace: ns },
    type: 'kubernetes.io/dockerconfigjson',
    data: {
      '.dockerconfigjson': b64(
        JSON.stringify({ auths: { 'quay.io': { auth: b64('demo:not-a-real-token'), email: 'demo@example.com' } } }),
      ),
    },
  });
  await createIfMissing(client, R.secret, {
    metadata: { name: 'aws-creds', namespace: ns },
    type: 'Opaque',
    data: { aws_access_key_id: b64('AKIASIMULATEDDEMO000'), aws_secret_access_key: b64('simulated-demo-secret-key') },
  });
}

function installConfigSecret(ns: string, secretName: string, region: string, clusterName = 'template') {
  const installConfig = {
    apiVersion: 'v1',
    metadata: { name: clusterName },
    baseDomain: BASE_DOMAIN,
    controlPlane: { name: 'master', replicas: 3, platform: { aws: { type: 'm6a.xlarge' } } },
    compute: [{ name: 'worker', replicas: 3, platform: { aws: { type: 'm6a.xlarge' } } }],
    networking: { networkType: 'OVNKubernetes', machineNetwork: [{ cidr: '10.0.0.0/16' }] },
    platform: { aws: { region } },
  };
  return {
    metadata: { name: secretName, namespace: ns },
    type: 'Opaque',
    data: { 'install-config.yaml': b64(toYaml(installConfig)) },
  };
}

async function createIfMissing(client: KubeClient, r: ApiResource, obj: Record<string, any>) {
  try {
    await client.create(r, obj as any);
  } catch (e: any) {
    if (e?.reason !== 'AlreadyExists') throw e;
  }
}
