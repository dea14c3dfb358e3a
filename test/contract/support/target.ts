// Where the contract suite runs: the double (always), or a real API server when KUBE_CONTRACT_KUBECONFIG names a
// kubeconfig (the upstream Hive CRDs are applied there first). Each suite gets its own namespace.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { parseAllDocuments } from 'yaml';
import { ApiextensionsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { startApiServer, type ApiServer } from '../../../src/sim/apiserver/index.js';
import { hiveCrds } from '../../../src/sim/crds/index.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const upstreamCrdDir = path.resolve(repoRoot, '../shared/hive/crds');

export function upstreamCrds(): any[] {
  if (!existsSync(upstreamCrdDir)) return [];
  return readdirSync(upstreamCrdDir).filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => parseAllDocuments(readFileSync(path.join(upstreamCrdDir, f), 'utf8')).map((d) => d.toJS()))
    .filter((d) => d?.kind === 'CustomResourceDefinition');
}

export interface Target {
  name: string;
  kc: KubeConfig;
  namespace: string;
  /** Present when the target is the double: fault injection and compaction. */
  double?: ApiServer;
  close(): Promise<void>;
}

export type CrdSource = 'upstream' | 'project';

/** The targets a semantics suite runs against: the double with each CRD source, plus a real server if configured. */
export function targetNames(): string[] {
  const names = ['double/project'];
  if (existsSync(upstreamCrdDir)) names.unshift('double/upstream');
  if (process.env.KUBE_CONTRACT_KUBECONFIG) names.push('real');
  return names;
}

export async function startTarget(name: string): Promise<Target> {
  const namespace = `contract-${randomBytes(3).toString('hex')}`;
  if (name === 'real') return realTarget(namespace);
  const crds = name === 'double/upstream' ? upstreamCrds() : hiveCrds();
  const double = await startApiServer({ crds, name });
  const kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(double.kubeconfig('contract')));
  await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: namespace } } });
  return { name, kc, namespace, double, close: () => double.close() };
}

async function realTarget(namespace: string): Promise<Target> {
  const kc = new KubeConfig();
  kc.loadFromFile(process.env.KUBE_CONTRACT_KUBECONFIG!);
  const ext = kc.makeApiClient(ApiextensionsV1Api);
  for (const crd of upstreamCrds()) {
    try {
      await ext.createCustomResourceDefinition({ body: crd });
    } catch (err: any) {
      if (err?.code !== 409) throw err;
    }
  }
  for (const crd of upstreamCrds()) {
    for (let i = 0; i < 100; i++) {
      const got = await ext.readCustomResourceDefinition({ name: crd.metadata.name });
      if (got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: namespace } } });
  return {
    name: 'real', kc, namespace,
    close: async () => { await core.deleteNamespace({ name: namespace }).catch(() => undefined); },
  };
}
