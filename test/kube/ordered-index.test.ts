// The ordered index behind GET /v1/clusters (src/kube/ordered-index.ts), kept by informer events from the API server
// double: after creates, relabels, deletes and re-creates its answers (and the pages built on them) are what a
// plain filter and sort of the cache gives. Two hubs and namespaces whose names sort around "/" ("east-2" before
// "east/", "a-b" before "a/"), so the order is the whole key's, as the API's cursors need.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock } from '../../src/clock.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { createKubeGateway, type KubeGateway } from '../../src/kube/gateway.js';
import { listClusters } from '../../src/services/clusters/list-clusters.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { cd, quietLog } from './support.js';

const HUBS = ['east', 'east-2'];
const NAMESPACES = ['a', 'a-b', 'b'];
let sim: Simulator;
let gw: KubeGateway;
const clock = createTestClock();

type Filter = { hub?: string; namespace?: string; labelSelector?: string };
const FILTERS: Filter[] = [
  {},
  { hub: 'east' },
  { hub: 'east-2' },
  { namespace: 'a' },
  { hub: 'east', namespace: 'a-b' },
];
const SELECTORS = [
  undefined,
  'team=a',
  'team==b',
  'team in (a,b)',
  'team in (a,nobody)',
  'team!=a',
  'team notin (a,b)',
  'tier',
  '!tier',
  'team=a,tier=gold',
  'tier=gold,team in (b,c)',
  'team=nobody',
];

const keyOf = (hub: string, o: ClusterDeployment) => `${hub}/${o.metadata.namespace}/${o.metadata.name}`;

/** Every filter and selector against a filter and sort of everything cached, the way lists were answered before. */
function expectIndexAgreesWithCache(): void {
  for (const f of FILTERS) {
    for (const labelSelector of SELECTORS) {
      const filter = { ...f, ...(labelSelector ? { labelSelector } : {}) };
      const plain = gw
        .cachedList<ClusterDeployment>('ClusterDeployment', filter)
        .map((r) => keyOf(r.hub, r.object))
        .sort();
      const indexed = gw.cachedInOrder<ClusterDeployment>('ClusterDeployment', filter);
      expect(
        indexed.map((r) => r.key),
        JSON.stringify(filter),
      ).toEqual(plain);
      for (const r of indexed) expect(r.object).toBe(gw.cached('ClusterDeployment', { hub: r.hub, ...names(r.key) }));
    }
  }
}

const names = (key: string) => {
  const [, namespace, name] = key.split('/');
  return { namespace: namespace!, name: name! };
};

/** Pages of 3 walked with the cursor: every match once, in order, and totals right. */
function expectPagesWalk(q: Filter): void {
  const all = gw
    .cachedList<ClusterDeployment>('ClusterDeployment', q)
    .map((r) => keyOf(r.hub, r.object))
    .sort();
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = listClusters(gw, { ...q, limit: 3, ...(cursor ? { cursor } : {}) });
    expect(page.total).toBe(all.length);
    seen.push(...page.items.map((c) => `${c.hub}/${c.namespace}/${c.name}`));
    cursor = page.nextCursor;
  } while (cursor);
  expect(seen).toEqual(all);
}

/** Waits until the cache shows what the API server holds now (its watch delivered every change). */
async function settled(): Promise<void> {
  const live = async () =>
    (
      await Promise.all(
        HUBS.map(async (hub) =>
          (await gw.list<ClusterDeployment>('ClusterDeployment', hub)).map(
            (o) => `${keyOf(hub, o)}@${JSON.stringify(o.metadata.labels ?? {})}`,
          ),
        ),
      )
    )
      .flat()
      .sort();
  const want = await live();
  const cached = () =>
    gw
      .cachedList<ClusterDeployment>('ClusterDeployment')
      .map((r) => `${keyOf(r.hub, r.object)}@${JSON.stringify(r.object.metadata.labels ?? {})}`)
      .sort();
  await expect.poll(cached, { timeout: 10_000, interval: 20 }).toEqual(want);
}

beforeAll(async () => {
  sim = await startSimulator({ hubNames: HUBS, controllers: false, clock });
  gw = await createKubeGateway({
    hubs: HUBS.map((name) => ({ name, kubeconfigData: sim.kubeconfigYaml(), context: name })),
    log: quietLog,
    clock,
    cachedKinds: ['ClusterDeployment'],
  });
  for (const hub of HUBS) for (const ns of NAMESPACES) await gw.create('Namespace', hub, { metadata: { name: ns } });
});

afterAll(async () => {
  await gw?.close();
  await sim?.close();
});

describe('the ordered index of cached ClusterDeployments', () => {
  it('answers like a filter and sort of the cache after creates, relabels, deletes and re-creates', async () => {
    const teams = ['a', 'b', 'c'];
    let n = 0;
    for (const hub of HUBS)
      for (const ns of NAMESPACES)
        for (let i = 0; i < 5; i++, n++) {
          const labels: Record<string, string> = { team: teams[n % 3]! };
          if (n % 4 === 0) labels.tier = n % 8 === 0 ? 'gold' : 'silver';
          await gw.create('ClusterDeployment', hub, cd(`c${i}`, ns, {}, labels));
        }
    await settled();
    expectIndexAgreesWithCache();
    expectPagesWalk({ labelSelector: 'team=a' });
    expectPagesWalk({ hub: 'east-2' });

    // Relabel: a team changes, a label goes away, a label appears; a change of something else keeps its place.
    await gw.mergePatch(
      'ClusterDeployment',
      { hub: 'east', namespace: 'a', name: 'c0' },
      {
        metadata: { labels: { team: 'b', tier: null } },
      },
    );
    await gw.mergePatch(
      'ClusterDeployment',
      { hub: 'east-2', namespace: 'a-b', name: 'c3' },
      {
        metadata: { labels: { tier: 'gold' } },
      },
    );
    await gw.mergePatch(
      'ClusterDeployment',
      { hub: 'east', namespace: 'b', name: 'c1' },
      {
        spec: { powerState: 'Hibernating' },
      },
    );
    // Deletes, and a name deleted and created again with other labels.
    await gw.delete('ClusterDeployment', { hub: 'east', namespace: 'a-b', name: 'c2' });
    await gw.delete('ClusterDeployment', { hub: 'east-2', namespace: 'a', name: 'c4' });
    await gw.delete('ClusterDeployment', { hub: 'east', namespace: 'a', name: 'c1' });
    await settled();
    await gw.create('ClusterDeployment', 'east', cd('c1', 'a', {}, { team: 'c', tier: 'gold' }));
    await gw.create('ClusterDeployment', 'east-2', cd('c9', 'a', {}, { team: 'a' }));
    await settled();
    expectIndexAgreesWithCache();
    expectPagesWalk({ labelSelector: 'team=a' });
    expectPagesWalk({ labelSelector: 'tier=gold' });
    expectPagesWalk({});
  });
});
