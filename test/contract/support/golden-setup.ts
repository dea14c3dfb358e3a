// The unrecorded calls that ran between the golden exchanges (README: namespace, Secrets, extra objects), keyed by
// the fixture they precede or follow, so the double holds the same objects when each exchange is replayed.

export type Call = (
  method: string,
  path: string,
  body?: unknown,
  contentType?: string,
) => Promise<{ status: number; body: any }>;

const CDS = '/apis/hive.openshift.io/v1/namespaces/golden/clusterdeployments';

export function cdBody(name: string, namespace = 'golden', extra: Record<string, unknown> = {}): any {
  return {
    apiVersion: 'hive.openshift.io/v1',
    kind: 'ClusterDeployment',
    metadata: { name, namespace, ...extra },
    spec: {
      baseDomain: 'example.com',
      clusterName: name,
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
      pullSecretRef: { name: 'pull-secret' },
      provisioning: {
        installConfigSecretRef: { name: 'install-config' },
        releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.13.0-x86_64',
      },
    },
  };
}

const secret = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { data: 'x' } });

export const before: Record<number, (call: Call) => Promise<void>> = {
  6: async (call) => {
    await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'golden' } });
    for (const s of ['aws-creds', 'pull-secret', 'install-config'])
      await call('POST', '/api/v1/namespaces/golden/secrets', secret(s));
  },
  41: async (call) => {
    await call('POST', CDS, cdBody('cd2', 'golden', { labels: { env: 'dev', tier: 'silver' } }));
    await call('POST', CDS, cdBody('cd3', 'golden', { labels: { tier: 'bronze' } }));
  },
  55: async (call) => {
    await call('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'golden-order' },
    });
    for (const n of ['a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'g7']) {
      await call('POST', '/apis/hive.openshift.io/v1/namespaces/golden-order/clusterdeployments', {
        apiVersion: 'hive.openshift.io/v1',
        kind: 'ClusterDeployment',
        metadata: { name: n, namespace: 'golden-order' },
        spec: { baseDomain: 'example.com', clusterName: n, platform: { aws: { region: 'us-east-1' } } },
      });
    }
  },
  60: async () => {},
  63: async (call) => {
    await call('POST', CDS, cdBody('cd-fin'));
  },
  70: async (call) => {
    for (const n of ['cd-bg', 'cd-fg', 'cd-orphan', 'cd-precond']) await call('POST', CDS, cdBody(n));
  },
  75: async (call) => {
    await call('POST', '/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'golden-term' },
    });
    await call(
      'POST',
      '/apis/hive.openshift.io/v1/namespaces/golden-term/clusterdeployments',
      cdBody('cd-term', 'golden-term', { finalizers: ['hive.openshift.io/deprovision'] }),
    );
  },
};

export const after: Record<number, (call: Call) => Promise<void>> = {
  7: async (call) => {
    await call('DELETE', `${CDS}/cd-defaults`);
  },
  17: async (call) => {
    const body = cdBody('cd-unknown-field-ignore');
    body.spec.notAField = 'x';
    await call('POST', `${CDS}?fieldValidation=Ignore`, body);
    await call('DELETE', `${CDS}/cd-unknown-field`);
    await call('DELETE', `${CDS}/cd-unknown-field-ignore`);
  },
  19: async (call) => {
    await call('DELETE', `${CDS}/cd-unknown-meta`);
  },
  30: async (call) => {
    await call('DELETE', `${CDS}/cd-ssa`);
  },
};

/** The actions a watch fixture observed (golden 56 notes). */
export async function watchActions(call: Call): Promise<void> {
  await call('POST', CDS, cdBody('cd-watch', 'golden', { labels: { env: 'watch' } }));
  await call('PATCH', `${CDS}/cd-watch`, { spec: { powerState: 'Hibernating' } }, 'application/merge-patch+json');
  await call(
    'PATCH',
    `${CDS}/cd-watch/status`,
    { status: { powerState: 'Hibernating' } },
    'application/merge-patch+json',
  );
  await call('DELETE', `${CDS}/cd-watch`);
}

/** The namespaces the recording (and so the replay) writes to. */
export const goldenNamespaces = ['golden', 'golden-order', 'golden-term'];
const CLUSTER_SCOPED = [
  '/apis/hive.openshift.io/v1/clusterimagesets/openshift-v4.13.0',
  '/apis/hive.openshift.io/v1/clusterimagesets/openshift-v4.14.0',
];

/**
 * Removes what a replay writes, so a real server can be replayed against again: finalizers first (the recording
 * leaves cd-term blocking its namespace), then the namespaces and cluster-scoped objects, waiting until they are gone.
 */
export async function cleanUp(call: Call, timeoutMs = 120_000): Promise<void> {
  for (const ns of goldenNamespaces) {
    const cds = `/apis/hive.openshift.io/v1/namespaces/${ns}/clusterdeployments`;
    for (const item of (await call('GET', cds)).body?.items ?? []) {
      if (item.metadata.finalizers?.length)
        await call(
          'PATCH',
          `${cds}/${item.metadata.name}`,
          { metadata: { finalizers: null } },
          'application/merge-patch+json',
        );
    }
    await call('DELETE', `/api/v1/namespaces/${ns}`);
  }
  for (const p of CLUSTER_SCOPED) await call('DELETE', p);
  const end = Date.now() + timeoutMs;
  for (const ns of goldenNamespaces) {
    while ((await call('GET', `/api/v1/namespaces/${ns}`)).status !== 404) {
      if (Date.now() > end) throw new Error(`namespace ${ns} is still there after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
