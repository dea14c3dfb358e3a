// What a waiting claim says while Hive works at its real pace: a 40-minute install that only the test clock moves
// (speed 1; every other step but the ClusterOperator settle pause takes no time), followed through the API and the
// event stream from the claim's creation to its cluster running.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { humanDuration } from '../../src/hive/claims/duration.js';
import type { ClusterPool } from '../../src/hive/pools/types.js';
import type { ClaimView } from '../../src/services/claims/claim-view.js';
import { installing, poolRequest, running, settling, startClaimsHarness, type ClaimsHarness } from './support.js';

const MINUTE = 60_000;
const INSTALL = 40 * MINUTE;
const SETTLE = 2 * MINUTE;
let h: ClaimsHarness;
let base: string;

async function api<T = any>(
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
): Promise<{ status: number; body: T; text: string }> {
  const res = await h.app.inject({ method, url, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json<T>(), text: res.body };
}

/** Every `event: claim` of the claim's stream, from now until `stop()`. */
function record(id: string) {
  const views: ClaimView[] = [];
  const waiters: Array<() => void> = [];
  const ctrl = new AbortController();
  const reading = (async () => {
    const res = await fetch(`${base}/v1/claims/${id}/events`, { signal: ctrl.signal });
    let buffer = '';
    for await (const chunk of res.body!) {
      buffer += Buffer.from(chunk).toString();
      const frames = buffer.split('\n\n');
      buffer = frames.pop()!;
      for (const f of frames)
        if (f.startsWith('event: claim')) views.push(JSON.parse(f.slice(f.indexOf('data: ') + 6)));
      for (const w of waiters.splice(0)) w();
    }
  })().catch((err: Error) => {
    if (err.name !== 'AbortError') throw err;
  });
  const until = async (test: (v: ClaimView) => boolean) => {
    while (!views.some(test)) await new Promise<void>((r) => waiters.push(r));
    return views.find(test)!;
  };
  return { views, until, stop: async () => (ctrl.abort(), await reading) };
}

beforeAll(async () => {
  h = await startClaimsHarness({
    speed: 1,
    durations: {
      imageSet: 0,
      provisionInitializing: 0,
      provisionRunning: INSTALL,
      syncSetApply: 0,
      startingMachines: 0,
      machinesStarting: 0,
      nodesStarting: 0,
      clusterOperatorSettle: SETTLE,
      clusterOperators: 0,
    },
  });
  base = await h.app.listen({ host: '127.0.0.1', port: 0 });
  await h.prerequisites();
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('claims tell the truth while they wait', () => {
  it('a claim waiting for the cluster installing for it says so, with the install step and an estimate from the pool\'s installs, never "at capacity"', async () => {
    // size 1, maxSize 2: once the first cluster is claimed, its replacement fills the pool to maxSize.
    expect(
      (await api('POST', '/v1/pools', poolRequest('hub-1', 'trial', { size: 1, runningCount: 1, maxSize: 2 }))).status,
    ).toBe(201);
    const first = await h.clusterWhere('hub-1', 'trial', installing);
    await h.jump('hub-1', first.metadata.name, INSTALL, settling);
    const ready = await h.jump('hub-1', first.metadata.name, SETTLE, running);
    // What Kubernetes recorded (40 and 2 minutes, or more when a jump had to be repeated) is what estimates rest on.
    const installMs = Date.parse(ready.status!.installedTimestamp!) - Date.parse(ready.metadata.creationTimestamp!);
    const since = (type: string) =>
      Date.parse(ready.status!.conditions!.find((c) => c.type === type)!.lastTransitionTime!);
    const startMs = since('Ready') - since('Hibernating');
    expect(installMs).toBeGreaterThanOrEqual(INSTALL);
    expect(startMs).toBeGreaterThanOrEqual(SETTLE);

    // A claim served from stock: assigned at once, and nothing on its stream contradicts that.
    const a = await api<ClaimView>('POST', '/v1/claims', { pool: 'hub-1/ci/trial', name: 'trial-a' });
    expect(a.status, a.text).toBe(201);
    const aStream = record(a.body.id);
    await aStream.until((v) => v.phase === 'Running');
    await aStream.stop();
    for (const v of [a.body, ...aStream.views])
      expect(['AssignmentPending', 'ClusterStarting', 'Running'], JSON.stringify(v)).toContain(v.reason);

    // Hive builds the replacement, which puts the pool at maxSize.
    const replacement = await h.clusterWhere(
      'hub-1',
      'trial',
      (cd) => cd.metadata.name !== first.metadata.name && installing(cd),
    );
    const R = replacement.metadata.name;
    await h.store.waitFor<ClusterPool, true>(
      'ClusterPool',
      { hub: 'hub-1', namespace: 'ci', name: 'trial' },
      (p) =>
        p?.status?.conditions?.some((c) => c.type === 'CapacityAvailable' && c.status === 'False') ? true : undefined,
      { timeoutMs: 10_000 },
    );

    const b = await api<ClaimView>('POST', '/v1/claims', { pool: 'hub-1/ci/trial', name: 'trial-b' });
    expect(b.status, b.text).toBe(201);
    const bStream = record(b.body.id);
    const told = await api<ClaimView>('GET', `/v1/claims/${b.body.id}`);
    expect(told.body).toMatchObject({
      phase: 'Pending',
      reason: 'ClustersInstalling',
      queue: { position: 1, ahead: 0 },
      step: { state: 'Provisioning', cluster: `hub-1/${R}/${R}` },
      message: `no ready cluster; ${R} is being installed for this claim (installing, creating the cluster (ClusterProvision provisioning))`,
      eta: {
        basis: `the last install in this pool took ${humanDuration(installMs)}; the last resume took ${humanDuration(startMs)}`,
      },
    });
    // A whole install, of which only real seconds have passed, then a start.
    const whole = (installMs + startMs) / 1000;
    expect(told.body.eta!.seconds).toBeGreaterThan(whole - 60);
    expect(told.body.eta!.seconds).toBeLessThanOrEqual(whole);

    h.clock.advance(INSTALL / 2);
    const halfway = await api<ClaimView>('GET', `/v1/claims/${b.body.id}`);
    expect(halfway.body.reason).toBe('ClustersInstalling');
    expect(halfway.body.eta!.seconds).toBeGreaterThan(whole - INSTALL / 2000 - 60);
    expect(halfway.body.eta!.seconds).toBeLessThanOrEqual(whole - INSTALL / 2000);

    await h.jump('hub-1', R, INSTALL / 2, (cd) => Boolean(cd.spec.installed));
    await h.jump('hub-1', R, SETTLE, running);
    await bStream.until((v) => v.phase === 'Running');
    await bStream.stop();

    // Every message from creation to running names the replacement as this claim's cluster, and none says the
    // pool is at capacity or gives up on an estimate.
    const views = [b.body, ...bStream.views];
    for (const v of views)
      expect(
        ['ClustersInstalling', 'ClusterResuming', 'AssignmentPending', 'ClusterStarting', 'Running'],
        JSON.stringify(v),
      ).toContain(v.reason);
    for (const v of views.filter((x) => x.phase === 'Pending')) {
      expect(v.message, JSON.stringify(v)).toContain(R);
      if (v.reason !== 'AssignmentPending') expect(v.eta, JSON.stringify(v)).toBeDefined();
    }
    expect(views.map((v) => v.reason)).toContain('ClustersInstalling');
    expect(views.at(-1)).toMatchObject({ phase: 'Running', cluster: { id: `hub-1/${R}/${R}` } });
  }, 90_000);

  it('with no install finished in the pool, a claim says "no estimate yet" rather than a number', async () => {
    expect((await api('POST', '/v1/pools', poolRequest('hub-2', 'fresh', { size: 0, runningCount: 0 }))).status).toBe(
      201,
    );
    await h.store.waitFor<ClusterPool, true>(
      'ClusterPool',
      { hub: 'hub-2', namespace: 'ci', name: 'fresh' },
      (p) => (p?.status ? true : undefined),
      { timeoutMs: 10_000 },
    );
    const created = await api<ClaimView>('POST', '/v1/claims', { pool: 'hub-2/ci/fresh', name: 'fresh-a' });
    expect(created.status, created.text).toBe(201);
    const building = await h.clusterWhere('hub-2', 'fresh', installing);
    const view = (await api<ClaimView>('GET', '/v1/claims/hub-2/ci/fresh-a')).body;
    expect(view).toMatchObject({
      reason: 'ClustersInstalling',
      step: { cluster: `hub-2/${building.metadata.name}/${building.metadata.name}` },
      message: `no ready cluster; ${building.metadata.name} is being installed for this claim (installing, creating the cluster (ClusterProvision provisioning)); no estimate yet: no install in this pool has finished`,
    });
    expect(view.eta).toBeUndefined();
    expect((await api('DELETE', '/v1/claims/hub-2/ci/fresh-a')).status).toBe(202);
  }, 30_000);
});
