// Readiness is about this process, not the hubs: not ready until the state hub's informers for Beekeeper's kinds
// have synced, but a dead hub leaves every replica ready and shows up in /readyz's body, GET /v1/hubs (since when,
// last error), beekeeper_hub_reachable and one Event each way (written by the scheduler lease holder only). A scrape
// sends nothing to any hub. The claim-wait histogram is observed once per claim across scheduler replicas, and a new
// lease holder does not observe again what its predecessor did.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock, type TestClock } from '../../src/clock.js';
import type { Config } from '../../src/config.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { createSystem, type Role, type System } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';
import { eventually } from '../auth/sign-in-support.js';

import { configFor, dropKeys, kubeconfigVia, log, partitionable, sample, scrape } from './hub-health-support.js';

describe('a scrape', () => {
  let sim: Simulator;
  let config: Config;
  let system: System;

  beforeAll(async () => {
    sim = await startSimulator({ hubNames: ['east'], controllers: false });
    config = configFor(sim, `{bk-scrape-${randomUUID().slice(0, 8)}}`);
    const clock = createTestClock();
    await prepareEmbeddedHub({ hub: config.hubs[0]!, namespace: config.stateNamespace, clock, log });
    // A refresh interval no test outlasts: only the refresh at start has probed the hub.
    system = await createSystem({ config, log, clock, roles: ['worker'], healthRefreshMs: 3_600_000 });
  }, 30_000);
  afterAll(async () => {
    await system?.close();
    await sim?.close();
    if (config) await dropKeys(config);
  });

  it('reads memory only: twenty scrapes send no request to the hub, and show it reachable, Redis up, standard process metrics', async () => {
    const before = sim.hubs[0]!.server.requestCount();
    let body = '';
    for (let i = 0; i < 20; i++) body = await scrape(system);
    expect(sim.hubs[0]!.server.requestCount()).toBe(before);
    expect(sample(body, 'beekeeper_hub_reachable{hub="east"}')).toBe(1);
    expect(sample(body, 'beekeeper_redis_up')).toBe(1);
    expect(body).toMatch(/^beekeeper_jobs\{hub="east",class="interactive",state="waiting"\} 0$/m);
    expect(body).toMatch(/^beekeeper_informer_healthy\{hub="east",kind="HibernationSchedule"\} 1$/m);
    // Node's default metrics under their standard names, as dashboards expect them.
    expect(body).toMatch(/^process_cpu_seconds_total \d/m);
    expect(body).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    expect(body).not.toContain('beekeeper_process_');
    expect(body).not.toContain('beekeeper_nodejs_');
  });
});

describe('readiness without its own state', () => {
  let sim: Simulator;
  let config: Config;
  let system: System;
  let east: Awaited<ReturnType<typeof partitionable>>;

  beforeAll(async () => {
    sim = await startSimulator({ hubNames: ['east'], controllers: false });
    east = await partitionable(sim.hubs[0]!.url);
    const direct = configFor(sim, `{bk-ready-${randomUUID().slice(0, 8)}}`);
    const clock = createTestClock();
    await prepareEmbeddedHub({ hub: direct.hubs[0]!, namespace: direct.stateNamespace, clock, log });
    // The state hub is cut off before the process starts: its informers cannot sync.
    config = { ...direct, hubs: [{ ...direct.hubs[0]!, kubeconfigData: kubeconfigVia(sim, 'east', east.url()) }] };
    await east.cut();
    system = await createSystem({ config, log, clock, roles: ['worker'], healthRefreshMs: 3_600_000 });
  }, 30_000);
  afterAll(async () => {
    await system?.close();
    await east?.cut().catch(() => undefined);
    await sim?.close();
    if (config) await dropKeys(config);
  });

  it("is not ready until the state hub's informers for Beekeeper's kinds have synced, then ready", async () => {
    const before = await system.app.inject({ url: '/readyz' });
    expect(before.statusCode).toBe(503);
    expect(before.json()).toMatchObject({
      status: 'not ready',
      redis: 'ok',
      state: { hub: 'east', synced: false, waitingFor: expect.arrayContaining(['HibernationSchedule', 'Operation']) },
    });
    await east.restore();
    // The informers retry with backoff (500 ms, doubling): ready once they have listed.
    const after = await eventually(
      async () => system.app.inject({ url: '/readyz' }),
      (r) => r.statusCode === 200,
      30_000,
    );
    expect(after.json()).toMatchObject({ status: 'ready', state: { hub: 'east', synced: true } });
  });
});

describe('two scheduler replicas and a hub that goes away', () => {
  let sim: Simulator;
  let clock: TestClock;
  let west: Awaited<ReturnType<typeof partitionable>>;
  let config: Config;
  let a: System;
  let b: System;

  beforeAll(async () => {
    clock = createTestClock();
    sim = await startSimulator({ hubNames: ['east', 'west'], controllers: false, clock });
    west = await partitionable(sim.hubs[1]!.url);
    config = configFor(sim, `{bk-hubs-${randomUUID().slice(0, 8)}}`, west.url());
    await prepareEmbeddedHub({ hub: config.hubs[0]!, namespace: config.stateNamespace, clock, log });
    const start = (refreshMs: number, roles: Role[]) =>
      createSystem({ config, log, clock, roles, healthRefreshMs: refreshMs, leaseTtlMs: 9000 });
    // `a` starts first and takes the scheduler lease; it probes often, `b` only at its start.
    a = await start(100, ['api', 'scheduler']);
    await eventually(async () => a.leader(), Boolean);
    b = await start(3_600_000, ['api', 'scheduler']);
    await a.store.create('Namespace', 'east', { metadata: { name: 'ci' } });
  }, 30_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await west?.cut().catch(() => undefined);
    await sim?.close();
    if (config) await dropKeys(config);
  });

  const hub = async (system: System, name: string) =>
    (await system.app.inject({ url: '/v1/hubs' }))
      .json<{ items: Array<Record<string, any>> }>()
      .items.find((h) => h.name === name)!;
  const hubEvents = async (reason: string) =>
    (await a.store.list<any>('Event', 'east', { namespace: config.stateNamespace })).filter((e) => e.reason === reason);
  /** Until `a` has probed `n` more times (its /v1/hubs checkedAt moves on each probe). */
  const probes = async (n: number) => {
    for (let i = 0; i < n; i++) {
      const last = (await hub(a, 'west')).checkedAt;
      await eventually(
        async () => (await hub(a, 'west')).checkedAt,
        (at) => at !== last,
      );
    }
  };

  it('stays ready when a hub is unreachable, and reports it in /v1/hubs, the gauge and one Event each way', async () => {
    // West is up from the start, as `a` sees it once a probe has answered: in a clean-clone run beside another,
    // `a` read it unreachable at this line, most likely a probe during the beforeAll (b starting in this same
    // process, every informer listing) past its 3-s timeout. Such a blip changes no count below: its Event, if `a`
    // wrote one, is the only one until the test clock moves past the interval between two.
    expect(
      await eventually(
        () => hub(a, 'west'),
        (h) => h.reachable,
      ),
    ).toMatchObject({ reachable: true, since: expect.any(String) });
    expect((await a.app.inject({ url: '/readyz' })).statusCode).toBe(200);

    const cutAt = new Date(clock.now()).toISOString();
    await west.cut();
    const down = await eventually(
      () => hub(a, 'west'),
      (h) => !h.reachable,
    );
    expect(down.since >= cutAt).toBe(true);
    expect(down.lastError).toEqual(down.message);
    expect(down.lastErrorAt).toBe(down.checkedAt);

    const ready = await a.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      status: 'ready',
      redis: 'ok',
      state: { hub: 'east', synced: true },
      hubs: [
        { name: 'east', reachable: true },
        { name: 'west', reachable: false, since: down.since },
      ],
    });
    expect(sample(await scrape(a), 'beekeeper_hub_reachable{hub="west"}')).toBe(0);

    // Many probes see it down; one Event says so, from the lease holder only (b never probes after its start).
    await probes(3);
    const unreachable = await hubEvents('HubUnreachable');
    expect(unreachable).toHaveLength(1);
    expect(unreachable[0]).toMatchObject({
      type: 'Warning',
      involvedObject: { kind: 'Namespace', name: config.stateNamespace },
      message: expect.stringMatching(/^Hub west is unreachable since /),
    });

    // The last failure is what /v1/hubs keeps saying after the hub is back (not always the first one: a probe in
    // flight at the cut fails with ECONNRESET, the ones after it with ECONNREFUSED).
    const lastDown = await hub(a, 'west');

    // Past the minimum interval between two Events about one hub, it comes back.
    clock.advance(61_000);
    await west.restore();
    const up = await eventually(
      () => hub(a, 'west'),
      (h) => h.reachable,
    );
    expect(up.lastError).toBe(lastDown.lastError);
    await probes(3);
    const back = await hubEvents('HubReachable');
    expect(back).toHaveLength(1);
    expect(back[0]).toMatchObject({ type: 'Normal', message: expect.stringMatching(/^Hub west is reachable again/) });
    expect(await hubEvents('HubUnreachable')).toHaveLength(1);
  });

  it('observes each claim wait once across replicas, and a new lease holder does not observe it again', async () => {
    const running = async (name: string) => {
      const ref = { hub: 'east', namespace: 'ci', name };
      const claim = await a.store.create<any>('ClusterClaim', 'east', {
        apiVersion: 'hive.openshift.io/v1',
        kind: 'ClusterClaim',
        metadata: { name, namespace: 'ci' },
        spec: { clusterPoolName: 'pool' },
      });
      // Hive's answer, written as the claim controller would: the cluster is running.
      const at = new Date(Date.parse(claim.metadata.creationTimestamp) + 90_000).toISOString();
      await a.store.mergePatch(
        'ClusterClaim',
        ref,
        {
          status: {
            conditions: [{ type: 'ClusterRunning', status: 'True', reason: 'Running', lastTransitionTime: at }],
          },
        },
        { subresource: 'status' },
      );
    };
    const waits = async (system: System) =>
      sample(await scrape(system), 'beekeeper_claim_wait_seconds_count{hub="east",namespace="ci",pool="pool"}') ?? 0;

    await running('first');
    await eventually(
      () => waits(a),
      (n) => n === 1,
    );
    // b saw the same claim start running (its informer has it) but holds no lease.
    await eventually(
      async () => b.store.cached<any>('ClusterClaim', { hub: 'east', namespace: 'ci', name: 'first' }),
      (c) => c?.status?.conditions?.length === 1,
    );
    expect(await waits(b)).toBe(0);

    // The holder goes away; b takes the lease. The first claim changes again: b does not observe it a second time.
    await a.close();
    await eventually(async () => b.leader(), Boolean);
    await b.store.mergePatch(
      'ClusterClaim',
      { hub: 'east', namespace: 'ci', name: 'first' },
      {
        metadata: { labels: { touched: 'yes' } },
      },
    );
    await running('second');
    await eventually(
      () => waits(b),
      (n) => n >= 1,
    );
    expect(await waits(b)).toBe(1);
  });
});
