// Where the contract suite runs: the double with our own CRDs (always), the double with the upstream Hive CRDs
// (skipped, with the reason, when they are not beside the clone), and a real API server when
// KUBE_CONTRACT_KUBECONFIG names a kubeconfig. Each suite gets its own namespace.
import { randomBytes } from 'node:crypto';
import { describe } from 'vitest';
import { ApiextensionsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { startApiServer, type ApiServer } from '../../../src/sim/apiserver/index.js';
import { hiveCrds } from '../../../src/sim/crds/index.js';
import { needs } from '../../support/needs.js';
import { upstreamCrds, upstreamCrdsMissing } from '../../support/upstream-crds.js';

export interface Target {
  name: string;
  kc: KubeConfig;
  namespace: string;
  /** Present when the target is the double: fault injection, compaction and the watch cache. */
  double?: ApiServer;
  close(): Promise<void>;
}

export interface TargetChoice {
  name: string;
  missing?: string;
}

/** The targets a contract suite runs against, each with the reason it is skipped, if it is. */
export function contractTargets(): TargetChoice[] {
  const targets: TargetChoice[] = [
    { name: 'double/upstream', missing: upstreamCrdsMissing },
    { name: 'double/project' },
  ];
  if (process.env.KUBE_CONTRACT_KUBECONFIG) targets.push({ name: 'real' });
  return targets;
}

/** describe() once per target ("%s" in the title is its name); a target that cannot run is skipped with its reason. */
export function describeTargets(title: string, body: (targetName: string) => void): void {
  for (const t of contractTargets()) describe(title.replace('%s', t.name), needs(t.missing), () => body(t.name));
}

/** `tls`: serve the double over HTTPS (kubectl sends no bearer token over plain HTTP); a real server is as it is. */
export async function startTarget(name: string, opts: { tls?: boolean } = {}): Promise<Target> {
  const namespace = `contract-${randomBytes(3).toString('hex')}`;
  if (name === 'real') return realTarget(namespace);
  const crds = name === 'double/upstream' ? upstreamCrds() : hiveCrds();
  const double = await startApiServer({ crds, name, tls: opts.tls });
  const kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(double.kubeconfig('contract')));
  await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: namespace } } });
  return { name, kc, namespace, double, close: () => double.close() };
}

/** The real API server's kubeconfig; only the file is known about it (it is treated as an opaque server). */
export function realKubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(process.env.KUBE_CONTRACT_KUBECONFIG!);
  return kc;
}

let crdsReady: Promise<void> | undefined;

/**
 * Makes sure the real server serves the Hive kinds: the upstream CRDs when they are beside the clone, otherwise our
 * own (src/sim/crds). CRDs the server already has (a hub with Hive installed) are left as they are.
 */
export function ensureHiveCrds(kc: KubeConfig): Promise<void> {
  crdsReady ??= (async () => {
    const ext = kc.makeApiClient(ApiextensionsV1Api);
    const crds = upstreamCrdsMissing ? (hiveCrds() as any[]) : upstreamCrds();
    for (const crd of crds) {
      try {
        await ext.createCustomResourceDefinition({ body: crd });
      } catch (err: any) {
        if (err?.code !== 409) throw err;
      }
    }
    for (const crd of crds) {
      for (let i = 0; i < 100; i++) {
        const got = await ext.readCustomResourceDefinition({ name: crd.metadata.name });
        if (got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  })();
  return crdsReady;
}

async function realTarget(namespace: string): Promise<Target> {
  const kc = realKubeConfig();
  await ensureHiveCrds(kc);
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  return {
    name: 'real',
    kc,
    namespace,
    close: async () => {
      await core.deleteNamespace({ name: namespace }).catch(() => undefined);
    },
  };
}
