import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { R } from '../client/index.js';
import { type HiveContext, type Obj, A, L } from './context.js';
import { canonicalJson, fnv32a, nameWithSuffix, rand5 } from './names.js';
import { credentialsSecretName, platformLabel } from './cd-platform.js';

/**
 * calculatePoolVersion: only platform, baseDomain, imageSetRef, installConfigSecretTemplateRef and
 * customizationRef (plus a marker when inventory is set) make pool CDs stale (REFERENCE §4.3).
 */
export function poolSpecHash(pool: Obj): string {
  const s = pool.spec ?? {};
  const parts = [s.platform, s.baseDomain, s.imageSetRef, s.installConfigSecretTemplateRef].map(canonicalJson);
  if (s.inventory) parts.push('hasInventory');
  if (s.customizationRef) parts.push(canonicalJson(s.customizationRef));
  return fnv32a(parts.join('|'));
}

/**
 * The pool's missing dependencies, worded as Hive's addClusters aggregates them ("<dependent>: <error>"), for the
 * MissingDependencies condition message.
 */
export async function missingDependencies(ctx: HiveContext, pool: Obj): Promise<string[]> {
  const ns = pool.metadata.namespace;
  const s = pool.spec ?? {};
  const missing: string[] = [];
  const imageSet = s.imageSetRef?.name ?? '';
  if (!ctx.informers.clusterImageSets.get(undefined, imageSet)) {
    missing.push(`cluster image set: clusterimagesets.hive.openshift.io ${JSON.stringify(imageSet)} not found`);
  }
  const secret = async (name: string | undefined, dependent: string, key?: string) => {
    if (!name) return;
    const found = await ctx.client.tryGet(R.secret, ns, name);
    if (!found) missing.push(`${dependent}: secrets ${JSON.stringify(name)} not found`);
    else if (key && !found.data?.[key]) {
      const why =
        dependent === 'pull secret'
          ? 'pull secret does not contain .dockerconfigjson data'
          : 'install-config secret does not contain install-config.yaml data';
      missing.push(`${dependent}: ${why}`);
    }
  };
  await secret(s.pullSecretRef?.name, 'pull secret', '.dockerconfigjson');
  await secret(s.installConfigSecretTemplateRef?.name, 'install config template secret', 'install-config.yaml');
  await secret(credentialsSecretName(s.platform), 'credentials secret');
  return missing;
}

/**
 * createCluster (pkg/clusterresource/builder.go): a fresh namespace `<pool>-<rand5>`, the Secrets copied into it,
 * the worker MachinePool and, last, the CD named like the namespace.
 */
export async function createPoolCluster(ctx: HiveContext, pool: Obj, hash: string): Promise<string> {
  const poolName: string = pool.metadata.name;
  const poolNs: string = pool.metadata.namespace;
  const s = pool.spec;
  const name = nameWithSuffix(poolName, rand5());
  await ctx.client.create(R.namespace, { metadata: { name, labels: { [L.namespacePool]: poolName } } });

  const installConfigName = `${name}-install-config`;
  await ctx.client.create(R.secret, {
    metadata: { name: installConfigName, namespace: name },
    type: 'Opaque',
    data: { 'install-config.yaml': Buffer.from(await installConfig(ctx, pool, name)).toString('base64') },
  });

  let pullSecretRef: { name: string } | undefined;
  if (s.pullSecretRef?.name) {
    const src = await ctx.client.get(R.secret, poolNs, s.pullSecretRef.name);
    pullSecretRef = { name: `${name}-pull-secret` };
    await ctx.client.create(R.secret, {
      metadata: { name: pullSecretRef.name, namespace: name },
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': src.data?.['.dockerconfigjson'] },
    });
  }

  const platformKey = Object.keys(s.platform ?? {})[0]!;
  const platform = structuredClone(s.platform);
  const credName = credentialsSecretName(s.platform);
  if (credName) {
    const src = await ctx.client.get(R.secret, poolNs, credName);
    const copyName = `${name}-${platformLabel(s.platform)}-creds`;
    await ctx.client.create(R.secret, {
      metadata: { name: copyName, namespace: name },
      type: src.type ?? 'Opaque',
      data: src.data,
    });
    platform[platformKey].credentialsSecretRef = { name: copyName };
  }

  if (!s.skipMachinePools) {
    await ctx.client.create(R.machinePool, {
      metadata: { name: `${name}-worker`, namespace: name },
      spec: { clusterDeploymentRef: { name }, name: 'worker', replicas: 3, platform: workerPlatform(s.platform) },
    });
  }

  const provisioning: Record<string, unknown> = {
    installConfigSecretRef: { name: installConfigName },
    imageSetRef: s.imageSetRef,
  };
  if (s.installerEnv) provisioning.installerEnv = s.installerEnv;
  const spec: Record<string, unknown> = {
    clusterName: name,
    baseDomain: s.baseDomain,
    platform,
    provisioning,
    manageDNS: false,
    clusterPoolRef: { namespace: poolNs, poolName },
  };
  if (pullSecretRef) spec.pullSecretRef = pullSecretRef;
  if (s.hibernateAfter) spec.hibernateAfter = s.hibernateAfter;
  if (s.installAttemptsLimit !== undefined) spec.installAttemptsLimit = s.installAttemptsLimit;
  await ctx.client.create(R.clusterDeployment, {
    metadata: {
      name,
      namespace: name,
      labels: { ...(s.labels ?? {}), [L.poolNamespace]: poolNs, [L.poolName]: poolName },
      annotations: { ...(s.annotations ?? {}), [A.poolSpecHash]: hash },
    },
    spec,
  });
  return name;
}

function workerPlatform(platform: Record<string, any>): Record<string, unknown> {
  if (platform.aws) return { aws: { type: 'm6a.xlarge', rootVolume: { size: 120, type: 'gp3', iops: 0 } } };
  if (platform.gcp) return { gcp: { type: 'n1-standard-4' } };
  if (platform.azure) return { azure: { type: 'Standard_D4s_v3', osDisk: { diskSizeGB: 128 } } };
  if (platform.openstack) return { openstack: { flavor: 'm1.xlarge' } };
  if (platform.vsphere)
    return { vsphere: { numCPUs: 4, numCoresPerSocket: 2, memoryMiB: 16384, osDisk: { diskSizeGB: 120 } } };
  return {};
}

/** The template with only metadata.name and baseDomain changed, as Hive does; a default one without a template. */
async function installConfig(ctx: HiveContext, pool: Obj, name: string): Promise<string> {
  const tpl = pool.spec.installConfigSecretTemplateRef?.name;
  let doc: Record<string, any>;
  if (tpl) {
    const secret = await ctx.client.get(R.secret, pool.metadata.namespace, tpl);
    doc = parseYaml(Buffer.from(secret.data?.['install-config.yaml'] ?? '', 'base64').toString('utf8')) ?? {};
  } else {
    const p = pool.spec.platform ?? {};
    const region = p.aws?.region ?? p.gcp?.region ?? p.azure?.region;
    doc = {
      apiVersion: 'v1',
      controlPlane: { name: 'master', replicas: 3 },
      compute: [{ name: 'worker', replicas: 3 }],
      networking: { machineNetwork: [{ cidr: '10.0.0.0/16' }] },
      platform: { [platformLabel(p)]: region ? { region, ...(p.aws ? { type: 'm6a.xlarge' } : {}) } : {} },
    };
  }
  doc.metadata = { ...(doc.metadata ?? {}), name };
  doc.baseDomain = pool.spec.baseDomain;
  return toYaml(doc);
}
