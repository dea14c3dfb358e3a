// The relocation API on two simulated hubs (east → west): preflight findings a user meets, refusals that create
// nothing, the Relocation and its job on acceptance, reading, streaming a real move to its end, and aborting one.
// The moves themselves, wave by wave, are the relocation job's (relocation-run.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import type { KubeObject } from '../../src/services/ports.js';
import { closeRedis, createRedis, waitReady } from '../../src/redis/connect.js';
import { EAST, WEST, createBody, prerequisites, startTwoHubBed, type TwoHubBed } from './support.js';

let bed: TwoHubBed;
const HOUR = 3_600_000;

const post = (payload: unknown, headers: Record<string, string> = {}) =>
  bed.app.inject({ method: 'POST', url: '/v1/relocations', payload: payload as object, headers });

async function install(hub: string, namespace: string, name: string, extra: Record<string, unknown> = {}) {
  const res = await bed.app.inject({
    method: 'POST',
    url: '/v1/clusters?wait=60',
    payload: createBody(hub, namespace, name, extra),
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().job.state, res.body).toBe('completed');
  // The install job ends at install; Hive then starts the cluster (the resume steps) before it is Running.
  await bed.system.store.waitFor<ClusterDeployment, true>(
    'ClusterDeployment',
    { hub, namespace, name },
    (cd) => (cd?.status?.powerState === 'Running' ? true : undefined),
    { timeoutMs: 30_000 },
  );
}

const relocations = () =>
  bed.system.store.cachedList<KubeObject>('Relocation', {
    hub: bed.config.stateHub,
    namespace: bed.config.stateNamespace,
  });
const operations = () =>
  bed.system.store
    .cachedList<KubeObject>('Operation', { hub: bed.config.stateHub, namespace: bed.config.stateNamespace })
    .filter((o) => (o.object.spec as { type?: string }).type === 'relocation.run');

type Report = {
  clusters: Array<{
    namespace: string;
    name: string;
    ok: boolean;
    checks: Array<{ check: string; severity: string; message: string; fix?: string }>;
  }>;
  imageSetsToCopy: string[];
  warnings: string[];
};
const checksOf = (report: Report, ns: string, name: string) =>
  report.clusters.find((c) => c.namespace === ns && c.name === name)!;

beforeAll(async () => {
  // A hibernation that takes 100 simulated hours leaves one cluster mid power transition for the whole file.
  bed = await startTwoHubBed({ durations: { stopping: 100 * HOUR } });
  for (const ns of ['alpha', 'clash', 'power', 'shared', 'matched', 'gamma', 'pool', 'solo'])
    await prerequisites(bed, EAST, ns);
  await prerequisites(bed, WEST, 'clash');
  // Only the source knows this release.
  await bed.system.store.create('ClusterImageSet', EAST, {
    metadata: { name: 'openshift-v4.17.0' },
    spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.0-x86_64' },
  });
  await Promise.all([
    install(EAST, 'alpha', 'mover', { imageSet: 'openshift-v4.17.0' }),
    install(EAST, 'clash', 'twin'),
    install(WEST, 'clash', 'twin'),
    install(EAST, 'power', 'sleepy'),
    install(EAST, 'shared', 'one'),
    install(EAST, 'shared', 'two'),
    install(EAST, 'matched', 'target', { labels: { move: 'me' } }),
    install(EAST, 'gamma', 'odd'),
    install(EAST, 'solo', 'one'),
  ]);
  const { store } = bed.system;
  // Waiting for the stop: Hive's hibernation sits in Stopping.
  await store.mergePatch(
    'ClusterDeployment',
    { hub: EAST, namespace: 'power', name: 'sleepy' },
    {
      spec: { powerState: 'Hibernating' },
    },
  );
  await store.waitFor<ClusterDeployment, true>(
    'ClusterDeployment',
    { hub: EAST, namespace: 'power', name: 'sleepy' },
    (cd) => (cd?.status?.powerState === 'Stopping' ? true : undefined),
    { timeoutMs: 10_000 },
  );
  // Someone else's ClusterRelocate already selects matched/target.
  await store.create('ClusterRelocate', EAST, {
    metadata: { name: 'someone-elses', namespace: 'matched' },
    spec: {
      kubeconfigSecretRef: { namespace: 'matched', name: 'elsewhere-kubeconfig' },
      clusterDeploymentSelector: { matchLabels: { move: 'me' } },
    },
  });
  // The #1932 shape: west already has gamma's ConfigMap, different, and kept by an owner.
  await store.create('Namespace', WEST, { metadata: { name: 'gamma' } });
  await store.create('ConfigMap', EAST, { metadata: { name: 'settings', namespace: 'gamma' }, data: { a: '1' } });
  const owner = await store.create<KubeObject>('ConfigMap', WEST, {
    metadata: { name: 'owner', namespace: 'gamma' },
    data: {},
  });
  await store.create('ConfigMap', WEST, {
    metadata: {
      name: 'settings',
      namespace: 'gamma',
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid! }],
    },
    data: { a: '2' },
  });
  // An unclaimed pool cluster.
  const pool = await bed.app.inject({
    method: 'POST',
    url: '/v1/pools',
    payload: {
      hub: EAST,
      namespace: 'pool',
      name: 'warm',
      platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
      baseDomain: 'example.com',
      imageSetName: 'openshift-v4.16.3',
      pullSecretRef: 'pull-secret',
      size: 1,
      runningCount: 0,
    },
  });
  expect(pool.statusCode, pool.body).toBe(201);
  // Hive's pool controller adds the pool's cluster; wait for the informer to show it (an event, not a poll).
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the pool made no cluster within 10 s')), 10_000);
    const done = () => {
      if (!poolCluster()) return;
      clearTimeout(timer);
      off();
      resolve();
    };
    const off = store.onChange('ClusterDeployment', done);
    done();
  });
}, 120_000);

afterAll(() => bed?.close());

const poolCluster = () =>
  bed.system.store
    .cachedList<ClusterDeployment>('ClusterDeployment', { hub: EAST })
    .map((e) => e.object)
    .find((cd) => cd.spec.clusterPoolRef?.poolName === 'warm')!;

describe('POST /v1/relocations refuses bad requests with 422 naming each field, creating nothing', () => {
  it.each([
    ['the same hub twice', { from: EAST, to: EAST, clusters: [{ namespace: 'alpha', name: 'mover' }] }, ['to']],
    ['an unknown hub', { from: 'north', to: WEST, clusters: [{ namespace: 'alpha', name: 'mover' }] }, ['from']],
    [
      'both clusters and selector',
      { from: EAST, to: WEST, clusters: [{ namespace: 'alpha', name: 'mover' }], selector: { team: 'a' } },
      ['clusters', 'selector'],
    ],
    ['neither clusters nor selector', { from: EAST, to: WEST }, ['clusters', 'selector']],
    [
      'a cluster not on the source',
      { from: EAST, to: WEST, clusters: [{ namespace: 'alpha', name: 'ghost' }] },
      ['clusters[0]'],
    ],
    [
      'a pool selector without claimed clusters',
      { from: EAST, to: WEST, selector: { pool: { namespace: 'pool', name: 'warm' } } },
      ['selector'],
    ],
    ['an unknown field', { from: EAST, to: WEST, selector: {}, wave: 3 }, ['wave']],
  ])('%s', async (_what, body, fields) => {
    const res = await post(body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const named = (res.json().errors as Array<{ field: string }>).map((e) => e.field);
    for (const f of fields) expect(named.join(' ')).toContain(f);
    expect(relocations()).toHaveLength(0);
    expect(operations()).toHaveLength(0);
  });
});

describe('preflight', () => {
  it('reports, per cluster, each finding with its reason and fix; a dry run creates nothing', async () => {
    const res = await post({
      from: EAST,
      to: WEST,
      dryRun: true,
      clusters: [
        { namespace: 'alpha', name: 'mover' },
        { namespace: 'clash', name: 'twin' },
        { namespace: 'power', name: 'sleepy' },
        { namespace: 'shared', name: 'one' },
        { namespace: 'matched', name: 'target' },
        { namespace: 'gamma', name: 'odd' },
        { namespace: poolCluster().metadata.namespace!, name: poolCluster().metadata.name },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json().report as Report;

    // Missing ClusterImageSet on west: not a failure, Beekeeper copies it and says so.
    const mover = checksOf(report, 'alpha', 'mover');
    expect(mover.ok).toBe(true);
    expect(mover.checks).toEqual([
      expect.objectContaining({
        check: 'image-set',
        severity: 'info',
        message: expect.stringContaining('Beekeeper copies it'),
      }),
    ]);
    expect(report.imageSetsToCopy).toEqual(['openshift-v4.17.0']);

    const twin = checksOf(report, 'clash', 'twin');
    expect(twin.ok).toBe(false);
    expect(twin.checks[0]).toMatchObject({
      check: 'name-conflict',
      severity: 'error',
      message: expect.stringContaining('already exists on west'),
      fix: expect.stringContaining('delete clash/twin on west'),
    });

    const sleepy = checksOf(report, 'power', 'sleepy');
    expect(sleepy.ok).toBe(false);
    expect(sleepy.checks).toContainEqual(
      expect.objectContaining({
        check: 'power-transition',
        severity: 'error',
        message: expect.stringContaining('Stopping'),
      }),
    );

    const one = checksOf(report, 'shared', 'one');
    expect(one.ok).toBe(true);
    expect(one.checks).toContainEqual(
      expect.objectContaining({
        check: 'shared-namespace',
        severity: 'warning',
        message: expect.stringContaining('2 ClusterDeployments'),
      }),
    );

    const target = checksOf(report, 'matched', 'target');
    expect(target.ok).toBe(false);
    expect(target.checks).toContainEqual(
      expect.objectContaining({
        check: 'cluster-relocate-match',
        message: expect.stringContaining('matched/someone-elses'),
      }),
    );

    const odd = checksOf(report, 'gamma', 'odd');
    expect(odd.ok).toBe(false);
    expect(odd.checks[0]).toMatchObject({
      check: 'conflicting-object',
      severity: 'error',
      message: expect.stringContaining(
        "ConfigMap gamma/settings exists on west, differs from east's and is owned by ConfigMap owner",
      ),
    });

    const pooled = checksOf(report, poolCluster().metadata.namespace!, poolCluster().metadata.name);
    expect(pooled.ok).toBe(false);
    expect(pooled.checks).toContainEqual(
      expect.objectContaining({ check: 'pool-cluster', message: expect.stringContaining('pools are per hub') }),
    );

    expect(relocations()).toHaveLength(0);
    expect(operations()).toHaveLength(0);
  });

  it('relocating a whole hub is the empty selector: every cluster of east, unclaimed pool clusters refused', async () => {
    const res = await post({ from: EAST, to: WEST, dryRun: true, selector: {} });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json().report as Report;
    const onEast = bed.system.store
      .cachedList<ClusterDeployment>('ClusterDeployment', { hub: EAST })
      .map((e) => `${e.object.metadata.namespace}/${e.object.metadata.name}`)
      .sort();
    // The eight installed here and the pool's cluster.
    expect(onEast).toEqual(
      expect.arrayContaining([
        'alpha/mover',
        'clash/twin',
        'gamma/odd',
        'matched/target',
        'power/sleepy',
        'shared/one',
        'shared/two',
        'solo/one',
        `${poolCluster().metadata.namespace}/${poolCluster().metadata.name}`,
      ]),
    );
    expect(report.clusters.map((c) => `${c.namespace}/${c.name}`).sort()).toEqual(onEast);
    const pooled = checksOf(report, poolCluster().metadata.namespace!, poolCluster().metadata.name);
    expect(pooled.ok).toBe(false);
    expect(pooled.checks).toContainEqual(
      expect.objectContaining({
        check: 'pool-cluster',
        severity: 'error',
        message: expect.stringContaining('pools are per hub'),
        fix: expect.stringContaining('claim the cluster first'),
      }),
    );
    // The clusters that pass would move with skipFailed: true; without it the whole request is refused.
    expect(checksOf(report, 'alpha', 'mover').ok).toBe(true);
    const refused = await post({ from: EAST, to: WEST, selector: {} });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().code).toBe('PreflightFailed');
    expect(relocations()).toHaveLength(0);
    expect(operations()).toHaveLength(0);
  });

  it('refuses with 422 and the report when a cluster fails and skipFailed is not set, creating nothing', async () => {
    const res = await post({
      from: EAST,
      to: WEST,
      clusters: [
        { namespace: 'alpha', name: 'mover' },
        { namespace: 'clash', name: 'twin' },
      ],
    });
    expect(res.statusCode, res.body).toBe(422);
    const body = res.json();
    expect(body.code).toBe('PreflightFailed');
    expect(body.detail).toContain('clash/twin');
    expect(checksOf(body.report, 'clash', 'twin').checks[0]?.check).toBe('name-conflict');
    expect(relocations()).toHaveLength(0);
    expect(operations()).toHaveLength(0);
  });
});

describe('an accepted relocation', () => {
  let id: string;
  const firstBody = {
    from: EAST,
    to: WEST,
    clusters: [
      { namespace: 'shared', name: 'one' },
      { namespace: 'clash', name: 'twin' },
      { namespace: 'shared', name: 'two' },
      { namespace: 'alpha', name: 'mover' },
    ],
    waves: { size: 2, pauseSeconds: 60 },
    skipFailed: true,
  };

  it('answers 202 with the Relocation (status seeded in waves) and its relocation.run job', async () => {
    const res = await post(firstBody, { 'idempotency-key': 'first-move' });
    expect(res.statusCode, res.body).toBe(202);
    const { relocation, job } = res.json();
    id = relocation.id;
    expect(res.headers.location).toBe(`/v1/relocations/${id}`);
    expect(job.type).toBe('relocation.run');
    expect(relocation).toMatchObject({
      from: EAST,
      to: WEST,
      phase: 'Pending',
      skipFailed: true,
      job: job.id,
      waves: { size: 2, pauseSeconds: 60, total: 2, done: 0 },
      progress: { total: 4, pending: 3, 'preflight-failed': 1 },
      links: { job: `/v1/jobs/${encodeURIComponent(job.id)}` },
    });
    expect(
      relocation.clusters.map((c: { name: string; wave: number; state: string; hub: string }) => [
        c.name,
        c.wave,
        c.state,
        c.hub,
      ]),
    ).toEqual([
      ['one', 1, 'pending', EAST],
      ['twin', 1, 'preflight-failed', EAST],
      ['two', 1, 'pending', EAST],
      ['mover', 2, 'pending', EAST],
    ]);
    expect(relocation.clusters[1].reason).toBe('name-conflict');

    // Durable in Kubernetes: the Relocation and the Operation behind the job.
    const stored = await bed.system.store.get<KubeObject>('Relocation', {
      hub: EAST,
      namespace: bed.config.stateNamespace,
      name: id,
    });
    expect(stored?.spec).toMatchObject({ from: EAST, to: WEST, skipFailed: true, waves: { size: 2 } });
    expect(['Pending', 'Running']).toContain((stored?.status as { phase: string }).phase);
    expect(
      await bed.system.store.get('Operation', { hub: EAST, namespace: bed.config.stateNamespace, name: job.id }),
    ).toBeDefined();

    // An Event on the Relocation says what was accepted (recorded off the request's path: look until it is there).
    let accepted: KubeObject | undefined;
    for (let i = 0; i < 50 && !accepted; i++) {
      const events = await bed.system.store.list<KubeObject>('Event', EAST, { namespace: bed.config.stateNamespace });
      accepted = events.find(
        (e) => e.reason === 'RelocationAccepted' && (e.involvedObject as { name: string }).name === id,
      );
      if (!accepted) await new Promise((r) => setTimeout(r, 100));
    }
    expect(accepted?.message).toBe('3 of 4 clusters to move from east to west in 2 wave(s), requested by anonymous');

    // The same Idempotency-Key and body: the same relocation, not a second one.
    const again = await post(firstBody, { 'idempotency-key': 'first-move' });
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().relocation.id).toBe(id);

    // Redis loses its record of the key: the Relocation in Kubernetes still answers, with the same relocation.
    const redis = createRedis(bed.config.redis, 'producer');
    await waitReady(redis);
    const keys = await redis.keys(`${bed.config.redis.prefix}:idem:*`);
    if (keys.length) await redis.del(...keys);
    await closeRedis(redis);
    const durable = await post(firstBody, { 'idempotency-key': 'first-move' });
    expect(durable.statusCode, durable.body).toBe(202);
    expect(durable.headers['idempotent-replayed']).toBe('true');
    expect(durable.json()).toMatchObject({ relocation: { id }, job: { id: job.id } });
    expect(relocations()).toHaveLength(1);
  });

  it('holds its clusters: another relocation of them fails preflight', async () => {
    const res = await post({ from: EAST, to: WEST, dryRun: true, clusters: [{ namespace: 'alpha', name: 'mover' }] });
    expect(res.statusCode).toBe(200);
    expect(checksOf(res.json().report, 'alpha', 'mover').checks).toContainEqual(
      expect.objectContaining({ check: 'other-relocation', message: expect.stringContaining(id) }),
    );
  });

  it('is listed newest first, filtered by phase, and read by id; an unknown id is 404', async () => {
    const list = await bed.app.inject({ method: 'GET', url: '/v1/relocations' });
    expect(list.statusCode).toBe(200);
    expect(list.json().items[0].id).toBe(id);
    const one = await bed.app.inject({ method: 'GET', url: `/v1/relocations/${id}` });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id, terminal: false, progress: { total: 4 } });
    const phase = one.json().phase as string;
    expect(['Pending', 'Running']).toContain(phase);
    const same = await bed.app.inject({ method: 'GET', url: `/v1/relocations?phase=${phase}` });
    expect(same.json().items.map((r: { id: string }) => r.id)).toContain(id);
    const done = await bed.app.inject({ method: 'GET', url: '/v1/relocations?phase=Succeeded' });
    expect(done.json().items).toEqual([]);
    const missing = await bed.app.inject({ method: 'GET', url: '/v1/relocations/reloc-nothere' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('application/problem+json');
    expect((await bed.app.inject({ method: 'GET', url: '/v1/relocations/reloc-nothere/events' })).statusCode).toBe(404);
    expect((await bed.app.inject({ method: 'POST', url: '/v1/relocations/reloc-nothere/abort' })).statusCode).toBe(404);
  });

  it('abort stops it, waits for Aborted and answers where each cluster is: on exactly one hub', async () => {
    // Wave 1 is moving or done and wave 2 waits out its pause: the abort lands in one or the other.
    const res = await bed.app.inject({
      method: 'POST',
      url: `/v1/relocations/${id}/abort?wait=60`,
      payload: { by: 'ops' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({ id, phase: 'Aborted', terminal: true, abort: { by: 'ops' } });
    for (const c of view.clusters as Array<{ namespace: string; name: string; state: string; hub: string }>) {
      expect(['aborted', 'moved', 'preflight-failed']).toContain(c.state);
      const on = [EAST, WEST].filter((hub) =>
        bed.system.store.cached('ClusterDeployment', { hub, namespace: c.namespace, name: c.name }),
      );
      // clash/twin exists on both hubs from the start (that is why it failed preflight).
      if (c.name !== 'twin') expect(on, `${c.namespace}/${c.name}`).toEqual([c.hub]);
    }
    expect(view.clusters.find((c: { name: string }) => c.name === 'mover')).toMatchObject({
      state: 'aborted',
      hub: EAST,
    });

    const finished = await bed.app.inject({ method: 'POST', url: `/v1/relocations/${id}/abort` });
    expect(finished.statusCode).toBe(409);
    expect(finished.json().detail).toContain('already ended (Aborted)');
  });

  it('streams the relocation as Server-Sent Events while it moves the cluster, until it ends', async () => {
    const res = await post({ from: EAST, to: WEST, clusters: [{ namespace: 'solo', name: 'one' }] });
    expect(res.statusCode, res.body).toBe(202);
    const next = res.json().relocation.id as string;
    const body = (await bed.app.inject({ method: 'GET', url: `/v1/relocations/${next}/events` })).body;
    const views = [...body.matchAll(/event: relocation\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]!));
    expect(views.length).toBeGreaterThan(0);
    const last = views.at(-1);
    expect(last, body).toMatchObject({ id: next, phase: 'Succeeded', terminal: true, progress: { moved: 1 } });
    expect(last.clusters[0]).toMatchObject({ namespace: 'solo', name: 'one', state: 'moved', hub: WEST });
    expect(bed.system.store.cached('ClusterDeployment', { hub: WEST, namespace: 'solo', name: 'one' })).toBeDefined();
  }, 60_000);

  it('two requests at once for the same cluster never both create a relocation', async () => {
    // alpha/mover is free again (its relocation was aborted): both requests pass preflight from the same cache.
    const body = { from: EAST, to: WEST, clusters: [{ namespace: 'alpha', name: 'mover' }] };
    const answers = await Promise.all([post(body), post(body), post(body)]);
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 202).length, codes.join(' ')).toBeLessThanOrEqual(1);
    for (const a of answers.filter((x) => x.statusCode !== 202)) {
      expect([409, 422]).toContain(a.statusCode);
      expect(a.body).toMatch(/relocation reloc-\w+ (also holds alpha\/mover|is already moving this cluster)/);
    }
    const holding = (
      await bed.system.store.list<KubeObject>('Relocation', EAST, { namespace: bed.config.stateNamespace })
    )
      .filter((r) => !['Succeeded', 'Failed', 'Aborted'].includes((r.status as { phase?: string }).phase ?? ''))
      .filter((r) => JSON.stringify(r.status).includes('"mover"'));
    expect(holding.length).toBeLessThanOrEqual(1);
  });
});
