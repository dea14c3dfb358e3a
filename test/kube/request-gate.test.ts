// Beekeeper at a hub's limit (issue 14): no client-side rate cap, at most `maxInFlight` requests in flight per hub,
// and the hub's own signal obeyed. A simulator with an APF-like limit answers 429 + Retry-After beyond N requests in
// flight; the gateway then holds every new request to that hub until Retry-After has passed, halves its window and
// grows it back as requests succeed. Interactive work overtakes queued background work; a hub's own limits in the
// configuration apply to that hub only; sequential requests reuse one TLS connection.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiException } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { systemClock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { Unavailable } from '../../src/hive/errors.js';
import { registerHubRequestMetrics } from '../../src/http/hub-request-metrics.js';
import { createKubeGateway, type KubeGateway } from '../../src/kube/gateway.js';
import { throttleSeconds } from '../../src/kube/map-error.js';
import { startApiServer, type ApiServer, type RequestRecord } from '../../src/sim/apiserver/index.js';
import { runAs } from '../../src/work-class.js';
import { quietLog } from './support.js';

const cleanups: Array<() => Promise<unknown> | void> = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn();
});

async function hub(opts: Parameters<typeof startApiServer>[0] = {}) {
  const records: RequestRecord[] = [];
  const server = await startApiServer({ tls: true, ...opts, onRequest: (r) => records.push(r) });
  cleanups.push(() => server.close());
  return { server, records };
}

async function gatewayFor(
  hubs: Array<{ name: string; server: ApiServer; maxInFlight?: number }>,
  opts: { maxInFlight?: number } = {},
) {
  const gateway = await createKubeGateway({
    hubs: hubs.map(({ name, server, maxInFlight }) => ({
      name,
      kubeconfigData: toYaml(server.kubeconfig(name)),
      ...(maxInFlight ? { maxInFlight } : {}),
    })),
    log: quietLog,
    clock: systemClock,
    cachedKinds: [],
    ...opts,
  });
  cleanups.push(() => gateway.close());
  return gateway;
}

const label = (gateway: KubeGateway, hubName: string, name: string, value: string) =>
  gateway.mergePatch('Namespace', { hub: hubName, name }, { metadata: { labels: { step: value } } });

/** What a caller does with Unavailable (the sweep's pool, a job's retry): try again, here at once. */
async function untilDone<T>(fn: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof Unavailable) || tries >= 100) throw err;
    }
  }
}

/** The most requests the server had in flight at once, 429s included. */
function peakInFlight(records: readonly RequestRecord[]): number {
  const edges = records.flatMap((r) => [
    { at: r.arrivedAt, d: 1 },
    { at: r.answeredAt, d: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.d - b.d);
  let now = 0;
  let peak = 0;
  for (const e of edges) peak = Math.max(peak, (now += e.d));
  return peak;
}

async function metric(registry: Registry, name: string, hubName: string): Promise<number | undefined> {
  const m = (await registry.getMetricsAsJSON()).find((x) => x.name === name);
  return m?.values.find((v) => v.labels.hub === hubName)?.value;
}

describe('the per-hub request gate', () => {
  it("backs off on the hub's 429 + Retry-After: every write completes, never more than the window in flight, nothing sent before Retry-After, the window drops and recovers", async () => {
    // The hub takes 2 requests at once; each PATCH takes 100 ms, so a burst overflows it at once.
    const { server, records } = await hub({ maxInFlight: 2, faults: { latency: [{ verb: 'patch', ms: 100 }] } });
    const gateway = await gatewayFor([{ name: 'east', server }], { maxInFlight: 8 });
    const registry = new Registry();
    registerHubRequestMetrics(registry, () => gateway.hubRequests());
    expect(await metric(registry, 'beekeeper_hub_request_window', 'east')).toBe(8);

    const windows: number[] = [];
    const sampler = setInterval(() => {
      void metric(registry, 'beekeeper_hub_request_window', 'east').then((w) => windows.push(w ?? NaN));
    }, 5);
    const writes = await Promise.all(
      Array.from({ length: 16 }, (_, i) => untilDone(() => label(gateway, 'east', 'default', `w${i}`))),
    );
    clearInterval(sampler);

    expect(writes).toHaveLength(16);
    const refused = records.filter((r) => r.code === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(await metric(registry, 'beekeeper_hub_throttled_total', 'east')).toBe(refused.length);
    // Each try is one request: 16 accepted PATCHes and the refused ones, no request lost or sent twice unasked.
    expect(records.filter((r) => r.method === 'PATCH' && r.code === 200)).toHaveLength(16);
    expect(peakInFlight(records)).toBeLessThanOrEqual(8);
    // After a 429 was answered, nothing new arrives before its Retry-After (1 s) has passed; what arrives within the
    // first 150 ms was already on its way when the client read the 429.
    for (const r of refused) {
      const early = records.filter((x) => x.arrivedAt > r.answeredAt + 150 && x.arrivedAt < r.answeredAt + 995);
      expect(early, `requests within Retry-After of the 429 answered at ${r.answeredAt.toFixed(0)}`).toEqual([]);
    }
    expect(Math.min(...windows)).toBeLessThan(8);

    // Requests one at a time fit the hub: each window's worth of successes grows the window by one, back to 8.
    for (let i = 0; i < 40; i++) await gateway.get('Namespace', { hub: 'east', name: 'default' });
    expect(await metric(registry, 'beekeeper_hub_request_window', 'east')).toBe(8);
    expect(await metric(registry, 'beekeeper_hub_requests_in_flight', 'east')).toBe(0);
  });

  it('serves an interactive request before background requests that queued earlier', async () => {
    const { server, records } = await hub({ faults: { latency: [{ verb: 'patch', ms: 50 }] } });
    const gateway = await gatewayFor([{ name: 'east', server, maxInFlight: 1 }]);
    const names = ['b1', 'b2', 'b3', 'b4', 'i1', 'i2'];
    for (const name of names)
      await gateway.create('Namespace', 'east', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    records.length = 0;

    // b1 takes the one slot; b2..b4 queue behind it; then a user's two requests arrive.
    const background = ['b1', 'b2', 'b3', 'b4'].map((n) => runAs('background', () => label(gateway, 'east', n, 'x')));
    const interactive = ['i1', 'i2'].map((n) => label(gateway, 'east', n, 'x'));
    await Promise.all([...background, ...interactive]);

    const order = records.filter((r) => r.method === 'PATCH').map((r) => r.path.split('/').pop());
    expect(order).toEqual(['b1', 'i1', 'i2', 'b2', 'b3', 'b4']);
  });

  it("applies a hub's own maxInFlight to that hub only, the setting's value to the others", async () => {
    const east = await hub({ faults: { latency: [{ verb: 'patch', ms: 50 }] } });
    const west = await hub({ faults: { latency: [{ verb: 'patch', ms: 50 }] } });
    const dir = mkdtempSync(join(tmpdir(), 'beekeeper-gate-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const files = { east: join(dir, 'east.yaml'), west: join(dir, 'west.yaml'), config: join(dir, 'beekeeper.yaml') };
    writeFileSync(files.east, toYaml(east.server.kubeconfig('east')));
    writeFileSync(files.west, toYaml(west.server.kubeconfig('west')));
    writeFileSync(
      files.config,
      toYaml({
        hubs: [
          { name: 'east', kubeconfig: files.east, maxInFlight: 1 },
          { name: 'west', kubeconfig: files.west },
        ],
      }),
    );
    const config = loadConfig({ BEEKEEPER_CONFIG: files.config, BEEKEEPER_KUBE_MAX_IN_FLIGHT: '4' });
    expect(config.hubs.map((h) => [h.name, h.maxInFlight, h.qps])).toEqual([
      ['east', 1, undefined],
      ['west', 4, undefined],
    ]);
    expect(loadConfig({}).hubDefaults).toMatchObject({ maxInFlight: 64 });
    expect(loadConfig({}).hubDefaults.qps).toBeUndefined();
    expect(() => loadConfig({ BEEKEEPER_KUBE_MAX_IN_FLIGHT: '0' })).toThrow(
      'BEEKEEPER_KUBE_MAX_IN_FLIGHT: 0 is outside 1..10000',
    );
    // As src/system.ts builds it.
    const gateway = await createKubeGateway({
      hubs: config.hubs,
      log: quietLog,
      clock: systemClock,
      cachedKinds: [],
      maxInFlight: config.hubDefaults.maxInFlight,
    });
    cleanups.push(() => gateway.close());

    await Promise.all(
      ['east', 'west'].flatMap((h) => Array.from({ length: 8 }, (_, i) => label(gateway, h, 'default', `p${i}`))),
    );
    expect(peakInFlight(east.records.filter((r) => r.method === 'PATCH'))).toBe(1);
    expect(peakInFlight(west.records.filter((r) => r.method === 'PATCH'))).toBe(4);
  });

  it('reuses one TLS connection for sequential requests', async () => {
    const { server } = await hub();
    const gateway = await gatewayFor([{ name: 'east', server }]);
    const before = server.connectionCount();
    for (let i = 0; i < 20; i++) await label(gateway, 'east', 'default', `s${i}`);
    expect(server.connectionCount() - before).toBe(1);
  });

  it("reads the server's signal: 429 (1 s without Retry-After), 503 only with Retry-After, at most 60 s", () => {
    const answer = (code: number, headers: Record<string, string> = {}) => new ApiException(code, '', '', headers);
    expect(throttleSeconds(answer(429))).toBe(1);
    expect(throttleSeconds(answer(429, { 'retry-after': '3' }))).toBe(3);
    expect(throttleSeconds(answer(503, { 'retry-after': '2' }))).toBe(2);
    expect(throttleSeconds(answer(503))).toBeUndefined();
    expect(throttleSeconds(answer(500, { 'retry-after': '2' }))).toBeUndefined();
    expect(throttleSeconds(answer(429, { 'retry-after': '86400' }))).toBe(60);
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(throttleSeconds(answer(429, { 'retry-after': 'Tue, 24 Nov 2026 12:00:05 GMT' }), now)).toBe(5);
    expect(throttleSeconds(new Error('socket hang up'))).toBeUndefined();
  });
});
