import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock } from '../../src/clock.js';
import { startApiServer, type ApiServer } from '../../src/sim/apiserver/index.js';
import { hiveCrds } from '../../src/sim/crds/index.js';
import {
  R,
  KubeApiError,
  createInformer,
  createKubeClient,
  createWorkQueue,
  isConflict,
  isNotFound,
  targetFromKubeconfig,
  type KubeClient,
} from '../../src/sim/client/index.js';
import { stringify as toYaml } from 'yaml';

const imageSet = (name: string, labels: Record<string, string> = {}) => ({
  metadata: { name, labels },
  spec: { releaseImage: `quay.io/x/release:${name}` },
});

describe('simulator Kubernetes client', () => {
  let server: ApiServer;
  let client: KubeClient;
  beforeAll(async () => {
    server = await startApiServer({ crds: hiveCrds() });
    client = createKubeClient(targetFromKubeconfig(toYaml(server.kubeconfig('one'))));
  });
  afterAll(() => server?.close());

  it('creates, reads, lists by label, patches and deletes, surfacing Kubernetes Status errors', async () => {
    await client.create(R.clusterImageSet, imageSet('c1', { tier: 'a' }));
    await client.create(R.clusterImageSet, imageSet('c2', { tier: 'b' }));
    const dup = await client.create(R.clusterImageSet, imageSet('c1')).catch((e) => e);
    expect(dup).toBeInstanceOf(KubeApiError);
    expect(dup.reason).toBe('AlreadyExists');
    const list = await client.list(R.clusterImageSet, undefined, { labelSelector: 'tier=a' });
    expect(list.items.map((i) => i.metadata.name)).toEqual(['c1']);
    expect(list.items[0]!.kind).toBe('ClusterImageSet');

    const got = await client.get(R.clusterImageSet, undefined, 'c1');
    const patched = await client.mergePatch(R.clusterImageSet, undefined, 'c1', {
      metadata: { labels: { tier: 'c' } },
    });
    expect(patched.metadata.labels.tier).toBe('c');
    const stale = await client.update(R.clusterImageSet, got).catch((e) => e);
    expect(isConflict(stale)).toBe(true);
    const precondition = await client
      .delete(R.clusterImageSet, undefined, 'c1', { resourceVersion: got.metadata.resourceVersion })
      .catch((e) => e);
    expect(isConflict(precondition)).toBe(true);

    await client.delete(R.clusterImageSet, undefined, 'c1');
    expect(isNotFound(await client.get(R.clusterImageSet, undefined, 'c1').catch((e) => e))).toBe(true);
    expect(await client.tryGet(R.clusterImageSet, undefined, 'c1')).toBeUndefined();
  });

  it('hands control back for a relist when the resume version is older than the watch cache (410 Gone)', async () => {
    const start = await client.list(R.clusterImageSet);
    await client.create(R.clusterImageSet, imageSet('g1'));
    server.restartWatchCache();
    const gone = await new Promise<boolean>((resolve) => {
      const w = client.watch(R.clusterImageSet, undefined, {
        resourceVersion: start.metadata.resourceVersion,
        onEvent: () => {},
        onGone: () => {
          w.stop();
          resolve(true);
        },
      });
    });
    expect(gone).toBe(true);
  });

  it('keeps an informer cache complete across dropped watch streams', async () => {
    const informer = createInformer(client, R.clusterImageSet);
    await informer.synced;
    server.faults.set({ watchDrops: { afterMs: 40 } });
    try {
      const names = ['d1', 'd2', 'd3', 'd4'];
      const seen = new Promise<void>((resolve) =>
        informer.onEvent(() => {
          if (names.every((n) => informer.get(undefined, n))) resolve();
        }),
      );
      for (const n of names) {
        await client.create(R.clusterImageSet, imageSet(n));
        await new Promise((r) => setTimeout(r, 30)); // spread the writes across several dropped streams
      }
      await seen;
      expect(names.every((n) => informer.get(undefined, n)?.spec.releaseImage === `quay.io/x/release:${n}`)).toBe(true);
      const deleted = new Promise<void>((r) =>
        informer.onEvent((t, o) => t === 'DELETED' && o.metadata.name === 'd2' && r()),
      );
      await client.delete(R.clusterImageSet, undefined, 'd2');
      await deleted;
      expect(informer.get(undefined, 'd2')).toBeUndefined();
    } finally {
      server.faults.clear();
      informer.stop();
    }
  });

  it('reports a kind the server does not serve as not served, instead of failing', async () => {
    const bare = await startApiServer({});
    try {
      const informer = createInformer(createKubeClient({ server: bare.url, token: bare.token }), R.clusterDeployment);
      await informer.synced;
      expect(informer.served()).toBe(false);
      informer.stop();
    } finally {
      await bare.close();
    }
  });
});

describe('work queue', () => {
  it('never runs a key twice at once, coalesces adds, and honours requeueAfter on the injected clock', async () => {
    const clock = createTestClock();
    const runs: string[] = [];
    let release!: () => void;
    let first = true;
    const queue = createWorkQueue({
      clock,
      reconcile: async (key) => {
        runs.push(key);
        if (first) {
          first = false;
          await new Promise<void>((r) => (release = r));
          return { requeueAfter: 60 * 60_000 };
        }
      },
    });
    queue.add('a');
    await new Promise((r) => setImmediate(r));
    queue.add('a'); // while running: once more afterwards
    queue.add('a'); // coalesced
    release();
    await queue.idle();
    expect(runs).toEqual(['a', 'a']);
    clock.advance(60 * 60_000);
    await queue.idle();
    expect(runs).toEqual(['a', 'a', 'a']);
    queue.stop();
  });
});
