// Pools and claims end to end: HTTP -> services -> gateway -> simulated Hive on two hubs, jobs on the real Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimView } from '../../src/services/claims/claim-view.js';
import type { ClusterClaim, ClusterPool } from '../../src/hive/pools/types.js';
import { createLogger } from '../../src/logger.js';
import { createClaimService } from '../../src/services/claims/claim-service.js';
import { IMAGE_SETS, poolRequest, startClaimsHarness, type ClaimsHarness } from './support.js';

const MINUTE = 60_000;
let h: ClaimsHarness;
let base: string;

async function api<T = any>(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<{ status: number; body: T; text: string }> {
  const res = await h.app.inject({ method, url, ...(payload !== undefined ? { payload: payload as object } : {}) });
  const text = res.body;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.statusCode, body, text };
}

const poolWhere = (hub: string, name: string, test: (p: ClusterPool) => boolean) =>
  h.store.waitFor<ClusterPool, true>(
    'ClusterPool',
    { hub, namespace: 'ci', name },
    (p) => (p && test(p) ? true : undefined),
    { timeoutMs: 30_000 },
  );

beforeAll(async () => {
  h = await startClaimsHarness();
  base = await h.app.listen({ host: '127.0.0.1', port: 0 });
  await h.prerequisites();
  const pools = [
    poolRequest('hub-1', 'warm-east', { labels: { 'beekeeper.io/team': 'payments' } }),
    poolRequest('hub-2', 'warm-west', {
      size: 2,
      runningCount: 2,
      platform: { type: 'aws', region: 'eu-west-1', credentialsSecretRef: 'aws-creds' },
      imageSetName: IMAGE_SETS.v417.name,
      labels: { 'beekeeper.io/team': 'payments' },
    }),
    poolRequest('hub-1', 'cold', { runningCount: 0, claimLifetime: { default: '1h', maximum: '2h' } }),
    poolRequest('hub-2', 'line', { maxConcurrent: 1 }),
  ];
  for (const p of pools) {
    const res = await api('POST', '/v1/pools', p);
    expect(res.status, res.text).toBe(201);
  }
  await Promise.all([
    poolWhere('hub-1', 'warm-east', (p) => p.status?.ready === 1),
    poolWhere('hub-2', 'warm-west', (p) => p.status?.ready === 2),
    poolWhere('hub-1', 'cold', (p) => p.status?.standby === 1),
    poolWhere('hub-2', 'line', (p) => p.status?.ready === 1),
  ]);
}, 60_000);

afterAll(async () => {
  await h?.close();
});

describe('pools', () => {
  it('summarises a pool with Hive counts, its clusters and the install-config template Beekeeper wrote', async () => {
    const { status, body } = await api('GET', '/v1/pools/hub-1/ci/warm-east');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: 'hub-1/ci/warm-east',
      platform: 'aws',
      region: 'us-east-1',
      version: '4.16.3',
      counts: { size: 1, ready: 1 },
      problems: [],
    });
    expect(body.clusters).toHaveLength(1);
    const template = await h.store.get<any>('Secret', {
      hub: 'hub-1',
      namespace: 'ci',
      name: 'warm-east-install-config-template',
    });
    expect(Buffer.from(template.data['install-config.yaml'], 'base64').toString()).toContain('region: us-east-1');
    expect(template.metadata.ownerReferences[0]).toMatchObject({ kind: 'ClusterPool', name: 'warm-east' });
  });

  it('changes pool settings, removes a cap, and deletes an unclaimed pool through a job', async () => {
    const created = await api(
      'POST',
      '/v1/pools',
      poolRequest('hub-2', 'temp', { size: 0, maxSize: 3, labels: { tier: 'tmp' } }),
    );
    expect(created.status, created.text).toBe(201);
    const changed = await api('PATCH', '/v1/pools/hub-2/ci/temp', {
      runningCount: 1,
      unset: ['maxSize'],
      hibernateAfter: '90m',
      claimLifetime: { maximum: '6h' },
      labels: { tier: 'ci' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      runningCount: 1,
      hibernateAfter: '1h30m',
      claimLifetime: { maximum: '6h' },
      labels: { tier: 'ci' },
    });
    expect(changed.body.maxSize).toBeUndefined();
    const deleted = await api('DELETE', '/v1/pools/hub-2/ci/temp');
    expect(deleted.status).toBe(202);
    expect(deleted.body.pool.deleting).toBe(true);
    expect((await h.queue.waitUntilDone(deleted.body.job.id, 20_000)).state).toBe('completed');
    expect((await api('GET', '/v1/pools/hub-2/ci/temp')).status).toBe(404);
  });

  it('refuses a bad pool with every field named and creates nothing', async () => {
    const res = await api(
      'POST',
      '/v1/pools',
      poolRequest('hub-1', 'bad', {
        size: 3,
        maxSize: 2,
        imageSetName: 'openshift-v9.9.9',
        claimLifetime: { default: '3d' },
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['claimLifetime.default', 'maxSize']);
    const missing = await api(
      'POST',
      '/v1/pools',
      poolRequest('hub-1', 'bad', { imageSetName: 'openshift-v9.9.9', pullSecretRef: 'nope' }),
    );
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      { field: 'imageSetName', reason: 'ClusterImageSet openshift-v9.9.9 does not exist on hub hub-1' },
      { field: 'pullSecretRef', reason: 'Secret ci/nope does not exist on hub hub-1' },
    ]);
    expect((await api('GET', '/v1/pools/hub-1/ci/bad')).status).toBe(404);
    const zero = await api('PATCH', '/v1/pools/hub-1/ci/warm-east', { maxSize: 0 });
    expect(zero.status).toBe(422);
    expect(zero.body.errors[0].field).toBe('maxSize');
    const both = await api('PATCH', '/v1/pools/hub-1/ci/warm-east', { maxSize: 4, unset: ['maxSize'] });
    expect(both.body.errors).toEqual([{ field: 'unset', reason: 'maxSize is both set and unset' }]);
    const below = await api('PATCH', '/v1/pools/hub-1/ci/warm-east', { size: 3, maxSize: 2 });
    expect(below.body.errors).toEqual([
      { field: 'maxSize', reason: 'maxSize 2 is below size 3: the pool could never fill' },
    ]);
    expect(
      await h.store.get('Secret', { hub: 'hub-1', namespace: 'ci', name: 'bad-install-config-template' }),
    ).toBeUndefined();
  });
});

describe('pool problems in plain words', () => {
  it('a pool at capacity says so, and so does a claim waiting on it', async () => {
    expect((await api('POST', '/v1/pools', poolRequest('hub-2', 'full', { size: 1, maxSize: 1 }))).status).toBe(201);
    await poolWhere('hub-2', 'full', (p) => p.status?.ready === 1);
    const first = await api<ClaimView>('POST', '/v1/claims?wait=30', { pool: 'hub-2/ci/full', name: 'full-1' });
    expect(first.body.phase, first.text).toBe('Running');
    await poolWhere(
      'hub-2',
      'full',
      (p) => p.status?.conditions?.some((c) => c.type === 'CapacityAvailable' && c.status === 'False') ?? false,
    );
    const pool = await api('GET', '/v1/pools/hub-2/ci/full');
    expect(pool.body.problems).toEqual([
      expect.objectContaining({
        type: 'CapacityAvailable',
        reason: 'MaxCapacity',
        message: expect.stringMatching(/^at capacity: /),
      }),
    ]);
    const second = await api<ClaimView>('POST', '/v1/claims', { pool: 'hub-2/ci/full', name: 'full-2' });
    expect(second.body).toMatchObject({
      phase: 'Pending',
      reason: 'AtCapacity',
      message:
        'no ready cluster and the pool is at capacity (maxSize 1 counts every cluster: 1 claimed); it waits for a claimed cluster to be released',
    });
    expect(pool.body.claimsWaiting).toBe(0);
    expect((await api('GET', '/v1/pools/hub-2/ci/full')).body).toMatchObject({
      claimsWaiting: 1,
      queue: ['hub-2/ci/full-2'],
    });
    for (const name of ['full-2', 'full-1'])
      expect((await api('DELETE', `/v1/claims/hub-2/ci/${name}`)).status).toBe(202);
  });

  it('a pool missing a dependency names it, claims on it say why they wait, and pools picked by attributes skip it', async () => {
    const pull = {
      metadata: { name: 'needy-pull', namespace: 'ci' },
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': Buffer.from('{"auths":{}}').toString('base64') },
    };
    await h.store.create('Secret', 'hub-1', pull as never);
    expect(
      (
        await api(
          'POST',
          '/v1/pools',
          poolRequest('hub-1', 'needy', {
            size: 0,
            runningCount: 0,
            pullSecretRef: 'needy-pull',
            labels: { tier: 'needy' },
          }),
        )
      ).status,
    ).toBe(201);
    await h.store.delete('Secret', { hub: 'hub-1', namespace: 'ci', name: 'needy-pull' });
    expect((await api('PATCH', '/v1/pools/hub-1/ci/needy', { size: 1 })).status).toBe(200);
    await poolWhere(
      'hub-1',
      'needy',
      (p) => p.status?.conditions?.some((c) => c.type === 'MissingDependencies' && c.status === 'True') ?? false,
    );
    const pool = await api('GET', '/v1/pools/hub-1/ci/needy');
    expect(pool.body.problems).toEqual([
      {
        type: 'MissingDependencies',
        reason: 'Missing',
        message: 'missing dependencies, no clusters can be built: pull secret: secrets "needy-pull" not found',
      },
    ]);
    const waiting = await api<ClaimView>('POST', '/v1/claims', { pool: 'hub-1/ci/needy', name: 'needy-1' });
    expect(waiting.body).toMatchObject({
      phase: 'Pending',
      reason: 'MissingDependencies',
      message: expect.stringContaining('missing dependencies: pull secret: secrets "needy-pull" not found'),
    });
    const picked = await api('POST', '/v1/claims', { selector: { labels: { tier: 'needy' } } });
    expect(picked.status).toBe(422);
    expect(picked.body.errors[0].reason).toContain(
      'hub-1/ci/needy: not used: missing dependencies (pull secret: secrets "needy-pull" not found)',
    );
    expect((await api('DELETE', '/v1/claims/hub-1/ci/needy-1')).status).toBe(202);
  });
});

describe('claims', () => {
  it('claims from a warm pool and gets a running cluster, its URLs and kubeconfig', async () => {
    const subjects = [
      { kind: 'Group', name: 'payments-ci' },
      { kind: 'ServiceAccount', name: 'runner', namespace: 'ci' },
    ];
    const res = await api<ClaimView>('POST', '/v1/claims?wait=30', { pool: 'warm-east', lifetime: '2h', subjects });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ pool: 'hub-1/ci/warm-east', phase: 'Running', lifetime: { lifetime: '2h' } });
    // Subjects as Hive takes them (REFERENCE.md §5): Hive binds them to hive-claim-owner in the cluster's namespace.
    const hiveSubjects = [
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'payments-ci' },
      { kind: 'ServiceAccount', name: 'runner', namespace: 'ci' },
    ];
    expect(res.body.subjects).toEqual(hiveSubjects);
    const clusterNs = res.body.cluster!.id.split('/')[1]!;
    const binding = await h.store.get<any>('RoleBinding', {
      hub: 'hub-1',
      namespace: clusterNs,
      name: 'hive-claim-owner',
    });
    expect(binding?.subjects).toEqual(hiveSubjects);
    const badSubject = await api('POST', '/v1/claims', {
      pool: 'warm-east',
      subjects: [{ kind: 'ServiceAccount', name: 'runner' }],
    });
    expect(badSubject.body.errors).toEqual([
      { field: 'subjects[0].namespace', reason: 'a ServiceAccount subject needs its namespace' },
    ]);
    expect(res.body.cluster?.apiURL).toMatch(/^https:\/\/api\./);
    const kubeconfig = await api('GET', `/v1/claims/${res.body.id}/kubeconfig`);
    expect(kubeconfig.status).toBe(200);
    expect(kubeconfig.text).toContain('clusters:');
    const credentials = await api('GET', `/v1/claims/${res.body.id}/credentials`);
    expect(credentials.body.password).toBeTruthy();

    const metrics = (await api('GET', '/metrics')).text;
    expect(metrics).toMatch(/beekeeper_claim_wait_seconds_count\{hub="hub-1",namespace="ci",pool="warm-east"\} 1/);
    expect(metrics).toMatch(/beekeeper_pool_clusters\{hub="hub-2",namespace="ci",pool="warm-west",state="ready"\} 2/);

    // The pool cannot be deleted while this claim holds one of its clusters; the answer names the claim.
    const del = await api('DELETE', '/v1/pools/hub-1/ci/warm-east');
    expect(del.status).toBe(409);
    expect(del.body.detail).toContain(`claim ${res.body.id} (cluster ${res.body.cluster!.id})`);
  });

  it('picks the pool by attributes across hubs and says why', async () => {
    // Both payments pools match; hub-2's has two ready clusters, hub-1's at most one (its only one was claimed above).
    const ranked = await api<ClaimView>('POST', '/v1/claims', { selector: { team: 'payments' } });
    expect(ranked.status, ranked.text).toBe(201);
    expect(ranked.body.pool).toBe('hub-2/ci/warm-west');
    expect(ranked.body.pickedBecause).toMatch(
      /^picked hub-2\/ci\/warm-west for team=payments: most ready clusters \(2 free against [01] in hub-1\/ci\/warm-east\)$/,
    );
    const west = await api<ClaimView>('POST', '/v1/claims', { selector: { team: 'payments', version: '4.17' } });
    expect(west.status, west.text).toBe(201);
    expect(west.body.pool).toBe('hub-2/ci/warm-west');
    expect(west.body.pickedBecause).toBe(
      'picked hub-2/ci/warm-west for team=payments, version=4.17: the only matching pool',
    );
    const east = await api<ClaimView>('POST', '/v1/claims', {
      selector: { region: 'us-east-1', labels: { 'beekeeper.io/team': 'payments' } },
    });
    expect(east.body.pool).toBe('hub-1/ci/warm-east');

    const none = await api('POST', '/v1/claims', { selector: { architecture: 'arm64' } });
    expect(none.status).toBe(422);
    expect(none.body.errors[0].reason).toContain('no pool matches architecture=arm64');
    expect(none.body.errors[0].reason).toContain('hub-2/ci/line: not used: architecture is x86_64, not aarch64');
  });

  it('reports the resume steps while a claim on a hibernating pool waits, then runs', async () => {
    const created = await api<ClaimView>('POST', '/v1/claims', { pool: 'hub-1/ci/cold', name: 'sleepy' });
    expect(created.status, created.text).toBe(201);
    expect(created.body.phase).toBe('Pending');
    const res = await fetch(`${base}/v1/claims/hub-1/ci/sleepy/events`);
    const reader = res.body!.getReader();
    const seen: ClaimView[] = [];
    let buffer = '';
    while (!seen.some((v) => v.phase === 'Running')) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += Buffer.from(value).toString();
      const frames = buffer.split('\n\n');
      buffer = frames.pop()!;
      for (const f of frames) if (f.startsWith('event: claim')) seen.push(JSON.parse(f.slice(f.indexOf('data: ') + 6)));
    }
    await reader.cancel();
    const resuming = seen.filter((v) => v.reason === 'ClusterResuming');
    const stepped = resuming.filter((v) => v.step?.step);
    expect(stepped.length).toBeGreaterThan(0);
    expect(stepped[0]!.message).toMatch(/^no ready cluster; cold-\w+ is resuming, step [1-4]\/4: /);
    expect(stepped[0]!.step!.cluster).toMatch(/^hub-1\/cold-\w+\/cold-\w+$/);
    expect(seen.at(-1)!.phase).toBe('Running');
  });

  it('refuses an extension beyond the pool maximum with the reason, and records both decisions', async () => {
    const ref = '/v1/claims/hub-1/ci/sleepy';
    const refused = await api('PATCH', ref, { extendBy: '2h' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        field: 'extendBy',
        reason:
          "would make the lifetime 3h, beyond the maximum 2h (the pool's claimLifetime.maximum); at most 1h more is allowed",
      },
    ]);
    const ok = await api<ClaimView>('PATCH', ref, { extendBy: '30m' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.lifetime?.lifetime).toBe('1h30m');
    const claim = await h.store.get<ClusterClaim>('ClusterClaim', { hub: 'hub-1', namespace: 'ci', name: 'sleepy' });
    expect(claim?.spec.lifetime).toBe('1h30m');
    expect(
      JSON.parse(claim!.metadata.annotations!['beekeeper.io/lifetime-history']!).map((e: { to: string }) => e.to),
    ).toEqual(['1h', '1h30m']);
    const events = await h.store.list<any>('Event', 'hub-1', { namespace: 'ci' });
    const reasons = events.filter((e) => e.involvedObject?.name === 'sleepy').map((e) => e.reason);
    expect(reasons).toEqual(expect.arrayContaining(['ClaimCreated', 'LifetimeExtensionRefused', 'LifetimeExtended']));

    // And in the log: one structured line per decision, with who asked.
    const lines: Array<Record<string, unknown>> = [];
    const log = {
      info: (o: object) => void lines.push(o as Record<string, unknown>),
      warn: (o: object) => void lines.push(o as Record<string, unknown>),
    };
    const audited = createClaimService({
      store: h.store,
      queue: h.queue,
      operations: h.operations,
      clock: h.clock,
      log,
    });
    const sleepy = { hub: 'hub-1', namespace: 'ci', name: 'sleepy' };
    const origin = { principal: 'alice', via: 'PATCH /v1/claims/:hub/:namespace/:name' };
    await expect(audited.extend(sleepy, { extendBy: '1h' }, origin)).rejects.toThrow(/beyond the maximum 2h/);
    expect((await audited.extend(sleepy, { extendBy: '15m' }, origin)).lifetime?.lifetime).toBe('1h45m');
    expect(lines).toEqual([
      expect.objectContaining({
        decision: 'claim',
        action: 'extend',
        claim: 'hub-1/ci/sleepy',
        actor: 'alice',
        outcome: 'refused',
        reason: expect.stringContaining('beyond the maximum 2h'),
      }),
      expect.objectContaining({
        audit: 'expiry',
        kind: 'ClusterClaim',
        hub: 'hub-1',
        namespace: 'ci',
        name: 'sleepy',
        action: 'extend',
        by: 'alice',
        via: origin.via,
        from: '1h30m',
        to: '1h45m',
      }),
    ]);
  });

  it('shows the lifetime history as recorded; an entry edited by hand into another shape is left out of the view and kept in the annotation', async () => {
    const ref = { hub: 'hub-1', namespace: 'ci', name: 'sleepy' };
    const before = await h.store.get<ClusterClaim>('ClusterClaim', ref);
    const recorded = JSON.parse(before!.metadata.annotations!['beekeeper.io/lifetime-history']!);
    const handEdited = [...recorded, { at: '2026-01-01T00:00:00Z', to: '9h', note: 'by hand' }];
    await h.store.mergePatch('ClusterClaim', ref, {
      metadata: { annotations: { 'beekeeper.io/lifetime-history': JSON.stringify(handEdited) } },
    });
    await h.store.waitFor(
      'ClusterClaim',
      ref,
      (c) => (c?.metadata.annotations?.['beekeeper.io/lifetime-history']?.includes('by hand') ? true : undefined),
      { timeoutMs: 10_000 },
    );
    const view = await api<ClaimView>('GET', '/v1/claims/hub-1/ci/sleepy');
    expect(view.status, view.text).toBe(200);
    expect(view.body.lifetimeHistory).toEqual(recorded);
    expect(view.body.lifetimeHistory.at(-1)).toMatchObject({
      action: 'extend',
      by: 'alice',
      via: 'PATCH /v1/claims/:hub/:namespace/:name',
      from: '1h30m',
      to: '1h45m',
    });
    const extended = await api<ClaimView>('PATCH', '/v1/claims/hub-1/ci/sleepy', {
      extendBy: '5m',
      by: 'bo',
      reason: 'one more run',
    });
    expect(extended.status, extended.text).toBe(200);
    expect(extended.body.lifetimeHistory.at(-1)).toMatchObject({
      action: 'extend',
      by: 'bo',
      reason: 'one more run',
      from: '1h45m',
      to: '1h50m',
    });
    const after = await h.store.get<ClusterClaim>('ClusterClaim', ref);
    expect(
      JSON.parse(after!.metadata.annotations!['beekeeper.io/lifetime-history']!)
        .map((e: { to: string }) => e.to)
        .slice(-2),
    ).toEqual(['9h', '1h50m']);
  });

  it('releases a claim whose holder stops heartbeating, after its timeout', async () => {
    const created = await api<ClaimView>('POST', '/v1/claims', {
      pool: 'hub-2/ci/warm-west',
      name: 'beating',
      heartbeatTimeout: '5m',
    });
    expect(created.status, created.text).toBe(201);
    const ref = { hub: 'hub-2', namespace: 'ci', name: 'beating' };
    const lease = await h.store.get<any>('Lease', { ...ref, name: 'beekeeper-claim-beating' });
    expect(lease.spec.leaseDurationSeconds).toBe(300);
    expect(lease.metadata.ownerReferences[0]).toMatchObject({ kind: 'ClusterClaim', name: 'beating' });

    h.clock.advance(4 * MINUTE);
    expect((await api('POST', '/v1/claims/hub-2/ci/beating/heartbeat', {})).status).toBe(200);
    h.clock.advance(4 * MINUTE);
    // Renewed 4 minutes ago, so 8 minutes after creation the claim is still held.
    const beat = await api('POST', '/v1/claims/hub-2/ci/beating/heartbeat', {});
    expect(beat.status, beat.text).toBe(200);

    // The deadline lives in the Lease on the hub, not in Redis or in the reaper's memory.
    await h.flushRedisAndRestartReaper();
    h.clock.advance(6 * MINUTE);
    await h.store.waitFor<ClusterClaim, true>(
      'ClusterClaim',
      ref,
      (c) => (!c || c.metadata.deletionTimestamp ? true : undefined),
      { timeoutMs: 20_000 },
    );
    const events = await h.store.list<any>('Event', 'hub-2', { namespace: 'ci' });
    const released = events.find((e) => e.involvedObject?.name === 'beating' && e.reason === 'ClaimReleased');
    expect(released?.message).toContain('no heartbeat for 5m');
  });

  it('serves many claims on a small pool FIFO with correct queue positions', async () => {
    const order: string[] = [];
    const off = h.store.onChange<ClusterClaim>('ClusterClaim', (hub, _type, c) => {
      if (hub === 'hub-2' && c.spec.clusterPoolName === 'line' && c.spec.namespace && !order.includes(c.metadata.name))
        order.push(c.metadata.name);
    });
    const names = ['line-a', 'line-b', 'line-c', 'line-d'];
    for (const name of names) {
      expect((await api('POST', '/v1/claims', { pool: 'hub-2/ci/line', name })).status).toBe(201);
      h.clock.advance(1000); // Hive orders by creationTimestamp, which has one-second resolution
    }
    await h.store.waitFor('ClusterClaim', { hub: 'hub-2', namespace: 'ci', name: 'line-d' }, (c) => c, {
      timeoutMs: 5000,
    });
    const { body } = await api<{ items: ClaimView[] }>('GET', '/v1/claims?pool=hub-2/ci/line');
    const pending = body.items.filter((c) => c.phase === 'Pending');
    expect(pending.length).toBeGreaterThanOrEqual(2);
    expect((await api('GET', '/metrics')).text).toMatch(
      /beekeeper_claims_pending\{hub="hub-2",namespace="ci",pool="line"\} [1-4]\n/,
    );
    pending.forEach((c, i) => expect(c.queue).toEqual({ position: i + 1, ahead: i }));
    expect(pending.at(-1)!.name).toBe('line-d');
    const pool = await api('GET', '/v1/pools/hub-2/ci/line');
    expect(pool.body.queue).toEqual(pending.map((c) => c.id));

    for (const name of names) {
      const running = await api<ClaimView>('GET', `/v1/claims/hub-2/ci/${name}?wait=30`);
      expect(running.body.phase, running.text).toBe('Running');
    }
    off();
    expect(order).toEqual(names);
  }, 60_000);

  it('lists claims a page at a time, oldest first, with filters', async () => {
    const first = await api<{ items: ClaimView[]; nextCursor?: string; total: number }>(
      'GET',
      '/v1/claims?pool=hub-2/ci/line&limit=3',
    );
    expect(first.status, first.text).toBe(200);
    expect(first.body.total).toBe(4);
    expect(first.body.items.map((c) => c.name)).toEqual(['line-a', 'line-b', 'line-c']);
    const next = await api<{ items: ClaimView[]; nextCursor?: string; total: number }>(
      'GET',
      `/v1/claims?pool=hub-2/ci/line&limit=3&cursor=${first.body.nextCursor}`,
    );
    expect(next.body).toMatchObject({ total: 4, items: [expect.objectContaining({ name: 'line-d' })] });
    expect(next.body.nextCursor).toBeUndefined();
    const running = await api<{ items: ClaimView[]; total: number }>(
      'GET',
      '/v1/claims?hub=hub-2&namespace=ci&phase=Running&limit=1',
    );
    expect(running.body.items).toHaveLength(1);
    expect(running.body.total).toBeGreaterThanOrEqual(4);
    expect(running.body.items[0]!.phase).toBe('Running');
    const badCursor = await api('GET', '/v1/claims?cursor=nonsense');
    expect(badCursor.status).toBe(422);
    expect(badCursor.body.errors).toEqual([{ field: 'cursor', reason: 'not a cursor this API returned' }]);
    expect((await api('GET', '/v1/claims?hub=nowhere')).status).toBe(422);
    expect((await api('GET', '/v1/claims?limit=0')).status).toBe(400);
  });

  it('answers a long poll when the wait ends, with the claim still pending and why', async () => {
    expect((await api('POST', '/v1/pools', poolRequest('hub-1', 'nothing', { size: 0, runningCount: 0 }))).status).toBe(
      201,
    );
    await poolWhere('hub-1', 'nothing', (p) => p.status !== undefined);
    expect((await api('POST', '/v1/claims', { pool: 'hub-1/ci/nothing', name: 'patient' })).status).toBe(201);
    const res = await fetch(`${base}/v1/claims/hub-1/ci/patient?wait=1`);
    const view = (await res.json()) as ClaimView;
    // Hive builds a cluster for the waiting claim (its drift counts pending claims); an install outlasts the wait.
    expect(view).toMatchObject({ phase: 'Pending', reason: 'ClustersInstalling', queue: { position: 1, ahead: 0 } });
    expect(view.message).toMatch(
      /^no ready cluster; (nothing-\w+ is being installed for this claim \(installing, .+\)|Hive is creating a cluster for this claim); no estimate yet: no install in this pool has finished$/,
    );
    expect((await api('DELETE', '/v1/claims/hub-1/ci/patient')).status).toBe(202);
  });

  it("estimates time to ready from the pool's history in Kubernetes, so a fresh service instance knows it too", async () => {
    expect((await api('POST', '/v1/pools', poolRequest('hub-2', 'builds', { size: 0, runningCount: 0 }))).status).toBe(
      201,
    );
    await poolWhere('hub-2', 'builds', (p) => p.status !== undefined);
    expect((await api('POST', '/v1/claims', { pool: 'hub-2/ci/builds', name: 'first-build' })).status).toBe(201);
    const first = await api<ClaimView>('GET', '/v1/claims/hub-2/ci/first-build?wait=30');
    expect(first.body.phase, first.text).toBe('Running');

    // As after a restart: a new instance with nothing in memory, only the informer cache.
    const fresh = createClaimService({
      store: h.store,
      queue: h.queue,
      operations: h.operations,
      clock: h.clock,
      log: createLogger({ level: 'silent' }),
    });
    const second = await fresh.create({ pool: 'hub-2/ci/builds', name: 'second-build' });
    // Hive builds a cluster for it (NoReadyCluster until the ClusterDeployment appears, then ClustersInstalling).
    expect(second.phase).toBe('Pending');
    expect(second.eta?.basis).toMatch(/^the last install in this pool took /);
    expect((await api('DELETE', '/v1/claims/hub-2/ci/second-build')).status).toBe(202);
    expect((await api('DELETE', '/v1/claims/hub-2/ci/first-build')).status).toBe(202);
  });

  it("releases at once from the caller's view while the deprovision continues as a job", async () => {
    const res = await api('DELETE', '/v1/claims/hub-2/ci/line-a');
    expect(res.status).toBe(202);
    expect(res.body.claim.phase).toBe('Releasing');
    expect(res.body.job.type).toBe('claim.release');
    const job = await h.queue.waitUntilDone(res.body.job.id, 20_000);
    expect(job.state).toBe('completed');
    expect(job.steps.map((s) => s.step)).toContain('Released');
    expect((await api('GET', '/v1/claims/hub-2/ci/line-a')).status).toBe(404);
  });
});

describe('claim lifetimes under ExpiryPolicy', () => {
  it('a policy lowers the cap below the fallback: creation and extension beyond it are refused, citing the policy', async () => {
    const { stateHub, stateNamespace } = h.policyHome;
    await h.store.create('ExpiryPolicy', stateHub, {
      apiVersion: 'beekeeper.io/v1beta1',
      kind: 'ExpiryPolicy',
      metadata: { name: 'qa-short', namespace: stateNamespace },
      spec: { selector: { hubs: ['hub-1'], teams: ['qa'] }, maxLifetime: '3h', defaultLifetime: '90m' },
    } as never);
    await h.store.waitFor('ExpiryPolicy', { hub: stateHub, namespace: stateNamespace, name: 'qa-short' }, (o) => o, {
      timeoutMs: 10_000,
    });
    expect(
      (
        await api(
          'POST',
          '/v1/pools',
          poolRequest('hub-1', 'qa', { size: 0, runningCount: 0, labels: { 'beekeeper.io/team': 'qa' } }),
        )
      ).status,
    ).toBe(201);
    await poolWhere('hub-1', 'qa', () => true);

    const tooLong = await api('POST', '/v1/claims', { pool: 'hub-1/ci/qa', name: 'qa-long', lifetime: '5h' });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors).toEqual([
      { field: 'lifetime', reason: '5h is longer than the maximum 3h (maxLifetime of ExpiryPolicy qa-short)' },
    ]);
    const byDefault = await api<ClaimView>('POST', '/v1/claims', { pool: 'hub-1/ci/qa', name: 'qa-default' });
    expect(byDefault.body.lifetime?.lifetime).toBe('1h30m');

    const refused = await api('PATCH', '/v1/claims/hub-1/ci/qa-default', { extendBy: '2h' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      {
        field: 'extendBy',
        reason:
          'would make the lifetime 3h30m, beyond the maximum 3h (maxLifetime of ExpiryPolicy qa-short); at most 1h30m more is allowed',
      },
    ]);
    const claim = await h.store.get<ClusterClaim>('ClusterClaim', {
      hub: 'hub-1',
      namespace: 'ci',
      name: 'qa-default',
    });
    expect(claim?.spec.lifetime).toBe('1h30m');
    expect((await api('DELETE', '/v1/claims/hub-1/ci/qa-default')).status).toBe(202);
  });
});
