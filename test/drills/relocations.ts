// The scene of the relocation drills (issue 11): clusters on hub `east`, one namespace each as Hive has them, moved
// to hub `west` through POST /v1/relocations. What is counted comes from the hubs, from outside Beekeeper: every
// ClusterDeployment created on west (one uid per cluster: moved once) and every ClusterRelocate created on east in
// the state namespace (one for the relocation, ever), from watches; and where each cluster is at the end.
import { expect } from 'vitest';
import type { RelocationView } from '../../src/services/relocations/relocation-view.js';
import { mapLimit } from '../../src/map-limit.js';
import { R, type ApiResource, type KubeClient } from '../../src/sim/client/index.js';
import { adoptClusters } from './clusters.js';
import { retryUntilSeen, STATE_NS, until, type Drill } from './harness.js';

export const FROM = 'east';
export const TO = 'west';

/** Namespace = name, one cluster per namespace. */
export const clusterNames = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`);

/** Adopted, installed clusters written straight to the hub (clusters.ts), one per namespace. */
export async function adoptOnePerNamespace(kube: KubeClient, names: readonly string[]): Promise<void> {
  await mapLimit(names, 8, (name) => adoptClusters(kube, name, [name]));
}

/** Until every named cluster on the hub reports Running (Hive reconciled it: preflight wants it settled). */
export async function untilRunning(kube: KubeClient, names: readonly string[], timeoutMs = 120_000) {
  const wanted = new Set(names);
  await until(
    `all ${names.length} clusters report Running`,
    async () => {
      const running = (await kube.list(R.clusterDeployment)).items.filter(
        (cd) => wanted.has(cd.metadata.name) && cd.status?.powerState === 'Running',
      );
      return running.length === wanted.size;
    },
    timeoutMs,
  );
}

/** Objects created on a hub, by `namespace/name`, as the set of uids seen in ADDED events of a watch. */
export interface Creations {
  uids(key: string): Set<string>;
  /** The uids of `key` seen in DELETED events (a create Beekeeper rolled back after a later write failed). */
  deleted(key: string): Set<string>;
  keys(): string[];
  stop(): void;
}

export function watchCreations(kube: KubeClient, r: ApiResource, namespace?: string): Creations {
  const seen = new Map<string, Set<string>>();
  const deleted = new Map<string, Set<string>>();
  let gone = false;
  const handle = kube.watch(r, namespace, {
    onEvent(type, o) {
      const key = `${o.metadata.namespace ?? ''}/${o.metadata.name}`;
      if (type === 'DELETED') deleted.set(key, (deleted.get(key) ?? new Set()).add(String(o.metadata.uid)));
      if (type !== 'ADDED') return;
      seen.set(key, (seen.get(key) ?? new Set()).add(String(o.metadata.uid)));
    },
    onGone() {
      gone = true;
    },
  });
  const check = () => {
    if (gone) throw new Error(`the watch on ${r.plural} was compacted away: creations may have been missed`);
  };
  return {
    uids: (key) => (check(), seen.get(key) ?? new Set()),
    deleted: (key) => (check(), deleted.get(key) ?? new Set()),
    keys: () => (check(), [...seen.keys()]),
    stop: () => handle.stop(),
  };
}

/** POST /v1/relocations for the named clusters (namespace = name); answers the relocation id. */
export async function relocate(
  drill: Drill,
  names: readonly string[],
  waves: { size: number; pauseSeconds?: number },
): Promise<string> {
  const res = await retryUntilSeen(() =>
    drill.api<{ relocation: RelocationView }>('POST', '/v1/relocations', {
      from: FROM,
      to: TO,
      clusters: names.map((n) => ({ namespace: n, name: n })),
      waves,
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return res.body.relocation.id;
}

export async function relocationView(drill: Drill, id: string): Promise<RelocationView> {
  const res = await drill.api<RelocationView>('GET', `/v1/relocations/${id}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Until the relocation is terminal (polled through the API); answers its view. */
export async function untilTerminal(drill: Drill, id: string, timeoutMs: number): Promise<RelocationView> {
  let view: RelocationView | undefined;
  await until(
    `relocation ${id} ends`,
    async () => {
      view = await relocationView(drill, id).catch(() => undefined);
      return view?.terminal === true;
    },
    timeoutMs,
  );
  return view!;
}

/** Where the named clusters are at the end: on west and not on east, each; answers the misplaced ones. */
export async function misplaced(drill: Drill, names: readonly string[]): Promise<string[]> {
  const [east, west] = await Promise.all(
    [FROM, TO].map(async (hub) => {
      const items = (await drill.kube(hub).list(R.clusterDeployment)).items;
      return new Set(items.map((cd) => `${cd.metadata.namespace}/${cd.metadata.name}`));
    }),
  );
  return names.filter((n) => east!.has(`${n}/${n}`) || !west!.has(`${n}/${n}`));
}

/** What Beekeeper created for the relocation on the source hub and must have removed: ClusterRelocate, Secret. */
export async function leftovers(drill: Drill, view: RelocationView): Promise<string[]> {
  const kube = drill.kube(FROM);
  const out: string[] = [];
  const relocates = (await kube.list(R.clusterRelocate, STATE_NS)).items;
  out.push(...relocates.map((r) => `ClusterRelocate ${r.metadata.name}`));
  const secret = await kube.tryGet(R.secret, STATE_NS, `relocation-${view.id}-kubeconfig`);
  if (secret) out.push(`Secret ${secret.metadata.name}`);
  return out;
}
