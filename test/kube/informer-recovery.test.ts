// Informers must outlive a flaky hub: dropped watch streams, failing watches, compaction (410 Gone), and hubs that
// are down at start-up. Each scenario waits on the gateway's own log lines and informer events, not on sleeps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { Unavailable } from '../../src/hive/errors.js';
import { createKubeGateway, type KubeGateway } from '../../src/kube/gateway.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { cd } from './support.js';

const HUB = 'west';
const ns = 'recovery';
let sim: Simulator;
let gw: KubeGateway;
const logged: Array<{ msg?: string; obj: Record<string, unknown> }> = [];
const waiters: Array<{ msg: string; resolve: () => void }> = [];
const note = (obj: object, msg?: string) => {
  logged.push({ msg, obj: obj as Record<string, unknown> });
  for (const w of waiters.filter((x) => x.msg === msg)) w.resolve();
};
const log = { info: note, warn: note, error: note };
const nextLog = (msg: string) => new Promise<void>((resolve) => waiters.push({ msg, resolve }));
const server = () => sim.hubs[0]!.server;
const FLAKY = { watchDrops: { afterMs: 50 } };

beforeAll(async () => {
  // A flaky hub for the whole file: every watch stream is cut 50 ms after it opens.
  sim = await startSimulator({ hubNames: [HUB], controllers: false, faults: FLAKY });
  gw = await createKubeGateway({
    hubs: [{ name: HUB, kubeconfigData: sim.kubeconfigYaml(), context: HUB }],
    log,
    clock: systemClock,
    cachedKinds: ['ClusterDeployment'],
  });
  await gw.create('Namespace', HUB, { metadata: { name: ns } });
});

afterAll(async () => {
  await gw?.close();
  await sim?.close();
});

const seen = (name: string) =>
  gw.waitFor('ClusterDeployment', { hub: HUB, namespace: ns, name }, (o) => o, { timeoutMs: 10_000 });

describe('informer recovery', () => {
  it('keeps the cache current while the hub keeps dropping watch streams', async () => {
    for (const name of ['drop-1', 'drop-2', 'drop-3']) {
      await gw.create('ClusterDeployment', HUB, cd(name, ns));
      await seen(name);
      await new Promise((r) => setTimeout(r, 60)); // let at least one stream drop between writes
    }
    const [status] = await gw.hubStatus();
    expect(status!.informers.ClusterDeployment).toEqual({ synced: true });
  });

  it('restarts after failed watches, reports the error meanwhile, and catches up afterwards', async () => {
    const failed = nextLog('informer failed; restarting with backoff');
    server().faults.set({ ...FLAKY, errors: [{ verb: 'watch', resource: 'clusterdeployments', rate: 1, code: 500 }] });
    await failed;
    const [broken] = await gw.hubStatus();
    expect(broken!.informers.ClusterDeployment?.lastError).toBeTruthy();

    await gw.create('ClusterDeployment', HUB, cd('while-broken', ns)); // written while no watch is open
    const recovered = nextLog('informer recovered');
    server().faults.set(FLAKY);
    await recovered;
    await seen('while-broken');
    const [healthy] = await gw.hubStatus();
    expect(healthy!.informers.ClusterDeployment).toEqual({ synced: true });
  });

  it('relists when its resourceVersion is older than the watch cache (410 Gone)', async () => {
    // Remove an object while the watch is down and the API server restarts (its watch cache starts over): only a
    // relist can notice the delete.
    await gw.create('ClusterDeployment', HUB, cd('compacted', ns));
    await seen('compacted');
    const failed = nextLog('informer failed; restarting with backoff');
    server().faults.set({ ...FLAKY, errors: [{ verb: 'watch', resource: 'clusterdeployments', rate: 1, code: 503 }] });
    await failed;
    await gw.delete('ClusterDeployment', { hub: HUB, namespace: ns, name: 'compacted' });
    server().restartWatchCache();
    const gone = gw.waitFor(
      'ClusterDeployment',
      { hub: HUB, namespace: ns, name: 'compacted' },
      (o) => (o ? undefined : true),
      { timeoutMs: 10_000 },
    );
    server().faults.set(FLAKY);
    await expect(gone).resolves.toBe(true);
  });
});

describe('hubs that are down', () => {
  it('do not block start-up; they are reported unreachable while other hubs work', async () => {
    const deadYaml = sim.kubeconfigYaml().replaceAll(sim.hubs[0]!.url, 'http://127.0.0.1:1');
    const started = Date.now();
    const multi = await createKubeGateway({
      hubs: [
        { name: HUB, kubeconfigData: sim.kubeconfigYaml(), context: HUB },
        { name: 'dead', kubeconfigData: deadYaml, context: HUB },
        { name: 'broken', kubeconfig: '/nonexistent/kubeconfig' },
      ],
      log: { info() {}, warn() {}, error() {} },
      clock: systemClock,
      cachedKinds: ['ClusterDeployment'],
      startupTimeoutMs: 5_000,
    });
    try {
      expect(Date.now() - started).toBeLessThan(5_000);
      const byName = Object.fromEntries((await multi.hubStatus()).map((s) => [s.name, s]));
      expect(byName[HUB]).toMatchObject({ reachable: true, hiveCrdsPresent: true });
      expect(byName[HUB]!.counts.ClusterDeployment).toBeGreaterThan(0);
      expect(byName.dead).toMatchObject({ reachable: false });
      expect(byName.dead!.message).toMatch(/unreachable/);
      expect(byName.dead!.informers.ClusterDeployment?.lastError).toBeTruthy();
      expect(byName.broken).toMatchObject({ reachable: false });
      await expect(multi.get('ClusterDeployment', { hub: 'dead', namespace: ns, name: 'x' })).rejects.toBeInstanceOf(
        Unavailable,
      );
      await expect(multi.get('ClusterDeployment', { hub: 'broken', namespace: ns, name: 'x' })).rejects.toBeInstanceOf(
        Unavailable,
      );
    } finally {
      await multi.close();
    }
  });
});
