// What the informer caches keep: every object of a list longer than one page (the informer lists in pages of 500,
// as client-go's reflector does), without managedFields or kubectl's last-applied annotation, whether the object
// came in the list or through the watch; the hub keeps both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock } from '../../src/clock.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { createKubeGateway, type KubeGateway } from '../../src/kube/gateway.js';
import { LIST_PAGE_SIZE } from '../../src/kube/paged-list.js';
import { LAST_APPLIED_ANNOTATION } from '../../src/kube/slim-object.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { cd, quietLog } from './support.js';

let sim: Simulator;
let writer: KubeGateway;
let gw: KubeGateway;
const clock = createTestClock();
const HUB = 'east';
const ns = 'slim';
const COUNT = LIST_PAGE_SIZE + 3;
const applied = (name: string) => ({
  ...cd(name, ns),
  metadata: {
    name,
    namespace: ns,
    annotations: { [LAST_APPLIED_ANNOTATION]: JSON.stringify(cd(name, ns)), 'example.com/owner': 'payments' },
  },
});
const gateway = (cachedKinds: ['ClusterDeployment'] | []) =>
  createKubeGateway({
    hubs: [{ name: HUB, kubeconfigData: sim.kubeconfigYaml(), context: HUB }],
    log: quietLog,
    clock,
    cachedKinds,
    rateLimit: { qps: 5000, burst: 5000 },
  });

beforeAll(async () => {
  sim = await startSimulator({ hubNames: [HUB], controllers: false, clock });
  writer = await gateway([]);
  await writer.create('Namespace', HUB, { metadata: { name: ns } });
  for (let i = 0; i < COUNT; i += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, COUNT - i) }, (_, j) =>
        writer.create('ClusterDeployment', HUB, applied(`listed-${String(i + j).padStart(4, '0')}`)),
      ),
    );
  gw = await gateway(['ClusterDeployment']);
}, 120_000);

afterAll(async () => {
  await gw?.close();
  await writer?.close();
  await sim?.close();
});

describe('informer cache', () => {
  it('holds every object of a list longer than one page, each without managedFields or the last-applied copy', async () => {
    const cached = gw.cachedList<ClusterDeployment>('ClusterDeployment', { namespace: ns });
    expect(cached).toHaveLength(COUNT);
    for (const { object } of cached) {
      expect(object.metadata).not.toHaveProperty('managedFields');
      expect(object.metadata.annotations).toEqual({ 'example.com/owner': 'payments' });
      expect(object.spec.clusterName).toBe(object.metadata.name);
    }
    const live = await gw.get<ClusterDeployment>('ClusterDeployment', { hub: HUB, namespace: ns, name: 'listed-0000' });
    expect(live?.metadata).toHaveProperty('managedFields');
    expect(live?.metadata.annotations?.[LAST_APPLIED_ANNOTATION]).toBeDefined();
  });

  it('slims what the watch delivers too, and drops annotations that held only the last-applied copy', async () => {
    const ref = { hub: HUB, namespace: ns, name: 'watched' };
    const obj = applied('watched');
    await gw.create('ClusterDeployment', HUB, {
      ...obj,
      metadata: { ...obj.metadata, annotations: { [LAST_APPLIED_ANNOTATION]: '{}' } },
    });
    const seen = await gw.waitFor<ClusterDeployment, ClusterDeployment>('ClusterDeployment', ref, (o) => o, {
      timeoutMs: 5000,
    });
    expect(seen.metadata).not.toHaveProperty('managedFields');
    expect(seen.metadata).not.toHaveProperty('annotations');
    expect(seen.metadata.resourceVersion).toBeDefined();

    await gw.mergePatch('ClusterDeployment', ref, { metadata: { labels: { team: 'b' } } });
    const changed = await gw.waitFor('ClusterDeployment', ref, (o) => (o?.metadata.labels?.team ? o : undefined), {
      timeoutMs: 5000,
    });
    expect(changed.metadata).not.toHaveProperty('managedFields');
  });
});
