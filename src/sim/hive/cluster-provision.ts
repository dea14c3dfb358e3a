import { randomUUID } from 'node:crypto';
import { R, type ReconcileResult } from '../client/index.js';
import { type HiveContext, type Obj, A, L, ann, isDeleting, splitKey } from './context.js';
import { setCondition } from './conditions.js';
import { isTruthy } from './go-values.js';
import { rand5 } from './names.js';
import type { Stopwatch } from './controller.js';
import { ensureCreated } from './writes.js';

/**
 * The install pod (pkg/installmanager) for one ClusterProvision: `initializing` until the infraID exists and the
 * admin Secrets are uploaded, then `provisioning` until `complete`, or `failed` when the simulator is told to fail.
 */
export async function reconcileClusterProvision(
  ctx: HiveContext,
  watch: Stopwatch,
  key: string,
): Promise<ReconcileResult | void> {
  const [ns, name] = splitKey(key);
  const provision = ctx.informers.clusterProvisions.get(ns, name);
  if (!provision || isDeleting(provision)) return;
  const cd = ctx.informers.clusterDeployments.get(ns, provision.spec?.clusterDeploymentRef?.name);
  if (!cd || isDeleting(cd)) return;
  const stage = provision.spec?.stage;
  const id = `provision/${provision.metadata.uid}`;

  if (stage === 'initializing') {
    const left = ctx.durations.provisionInitializing - watch.elapsed(id, stage);
    if (left > 0) return { requeueAfter: left };
    const identity = await uploadClusterSecrets(ctx, cd, provision);
    await ctx.client.update(R.clusterProvision, {
      ...provision,
      spec: {
        ...provision.spec,
        stage: 'provisioning',
        infraID: identity.infraID,
        clusterID: identity.clusterID,
        adminKubeconfigSecretRef: { name: identity.kubeconfig },
        adminPasswordSecretRef: { name: identity.password },
        metadataJSON: Buffer.from(identity.metadataJson).toString('base64'),
      },
    });
    return;
  }

  if (stage === 'provisioning') {
    const fail = shouldFail(ctx, cd, provision.spec.attempt ?? 0);
    const left = (fail ? ctx.durations.provisionFailure : ctx.durations.provisionRunning) - watch.elapsed(id, stage);
    if (left > 0) return { requeueAfter: left };
    const now = ctx.clock.now();
    const updated = await ctx.client.update(R.clusterProvision, {
      ...provision,
      spec: { ...provision.spec, stage: fail ? 'failed' : 'complete' },
    });
    const conditions = fail
      ? setCondition(
          updated.status?.conditions,
          'ClusterProvisionFailed',
          'True',
          'UnknownError',
          `Simulated install failure of attempt ${provision.spec.attempt ?? 0} (${A.installFailures})`,
          now,
        )
      : setCondition(
          updated.status?.conditions,
          'ClusterProvisionFailed',
          'False',
          'ProvisionSucceeded',
          'Provisioning succeeded',
          now,
        );
    await ctx.client.updateStatus(R.clusterProvision, { ...updated, status: { ...updated.status, conditions } });
    watch.forget(id);
  }
}

/** The install-failures annotation (or the simulator default): fail attempts 0..n-1, or all of them. */
function shouldFail(ctx: HiveContext, cd: Obj, attempt: number): boolean {
  const raw = ann(cd, A.installFailures);
  const setting = raw === undefined ? ctx.options.installFailures : raw === 'always' ? 'always' : Number(raw);
  if (setting === 'always') return true;
  return Number.isFinite(setting) && attempt < setting;
}

/** What openshift-install leaves behind: the admin kubeconfig and password Secrets and metadata.json. */
async function uploadClusterSecrets(ctx: HiveContext, cd: Obj, provision: Obj) {
  const ns = cd.metadata.namespace;
  const fake = isTruthy(ann(cd, A.fakeCluster));
  const clusterName: string = cd.spec.clusterName;
  const clusterID = fake ? `fake-cluster-${randomUUID()}` : randomUUID();
  // openshift-install truncates the cluster name to 21 characters, then appends 5 random characters.
  const infraID = fake ? clusterID : `${clusterName.slice(0, 21).replace(/-+$/, '')}-${rand5()}`;
  const server = fake ? 'https://example.com/veryfakeapi' : `https://api.${clusterName}.${cd.spec.baseDomain}:6443`;
  const kubeconfig = `${provision.metadata.name}-admin-kubeconfig`;
  const password = `${provision.metadata.name}-admin-password`;
  const labels = (type: string) => ({
    [L.cdName]: cd.metadata.name,
    [L.provisionName]: provision.metadata.name,
    [L.secretType]: type,
  });
  // Owned by the CD (Hive re-parents them from the provision) so they live as long as the cluster.
  const owner = [
    {
      apiVersion: cd.apiVersion,
      kind: cd.kind,
      name: cd.metadata.name,
      uid: cd.metadata.uid,
      blockOwnerDeletion: true,
    },
  ];
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const kubeconfigText = adminKubeconfig(clusterName, server);
  await ensureCreated(ctx, R.secret, {
    metadata: { name: kubeconfig, namespace: ns, labels: labels('kubeconfig'), ownerReferences: owner },
    type: 'Opaque',
    data: { kubeconfig: b64(kubeconfigText), 'raw-kubeconfig': b64(kubeconfigText) },
  });
  await ensureCreated(ctx, R.secret, {
    metadata: { name: password, namespace: ns, labels: labels('kubeadmincreds'), ownerReferences: owner },
    type: 'Opaque',
    data: { username: b64('kubeadmin'), password: b64(fake ? 'fake-password' : randomPassword()) },
  });
  const metadataJson = JSON.stringify({ clusterName, clusterID, infraID, ...platformMetadata(cd) });
  await ensureCreated(ctx, R.secret, {
    metadata: {
      name: `${cd.metadata.name}-metadata-json`,
      namespace: ns,
      labels: { [L.cdName]: cd.metadata.name, [L.secretType]: 'metadata.json' },
      ownerReferences: owner,
    },
    type: 'Opaque',
    data: { 'metadata.json': b64(metadataJson) },
  });
  return { clusterID, infraID, kubeconfig, password, metadataJson };
}

function platformMetadata(cd: Obj): Record<string, unknown> {
  const p = cd.spec.platform ?? {};
  if (p.aws) return { aws: { region: p.aws.region } };
  if (p.gcp) return { gcp: { region: p.gcp.region } };
  if (p.azure) return { azure: { region: p.azure.region, cloudName: p.azure.cloudName || 'AzurePublicCloud' } };
  return {};
}

function adminKubeconfig(clusterName: string, server: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${clusterName}`,
    '  cluster:',
    `    server: ${server}`,
    '    certificate-authority-data: ' + Buffer.from('simulated CA').toString('base64'),
    'contexts:',
    `- name: admin`,
    '  context:',
    `    cluster: ${clusterName}`,
    '    user: admin',
    'current-context: admin',
    'users:',
    '- name: admin',
    '  user:',
    '    client-certificate-data: ' + Buffer.from('simulated cert').toString('base64'),
    '    client-key-data: ' + Buffer.from('simulated key').toString('base64'),
    '',
  ].join('\n');
}

/** kubeadmin passwords look like 5 groups of 5 characters joined by dashes. */
function randomPassword(): string {
  return [rand5(), rand5(), rand5(), rand5()].map((s) => s.replace(/^./, (c) => c.toUpperCase())).join('-');
}
