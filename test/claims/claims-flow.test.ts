// Claims end to end: HTTP -> services -> gateway -> simulated Hive on two hubs, jobs on the real Redis (flow-bed.ts):
// claiming, picking a pool, resume steps, extensions, lifetime history, heartbeats.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimView } from '../../src/services/claims/claim-view.js';
import type { ClusterClaim } from '../../src/hive/pools/types.js';
import { createClaimService } from '../../src/services/claims/claim-service.js';
import { flowApi, startFlowBed } from './flow-bed.js';
import type { ClaimsHarness } from './support.js';

const MINUTE = 60_000;
let h: ClaimsHarness;
let base: string;
const api = flowApi(() => h);

beforeAll(async () => {
  ({ h, base } = await startFlowBed());
}, 60_000);

afterAll(async () => {
  await h?.close();
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
    // The Event follows the delete (claim-release.ts): a watcher may see the claim go a moment before it.
    const releasedEvent = async () =>
      (await h.store.list<any>('Event', 'hub-2', { namespace: 'ci' })).find(
        (e) => e.involvedObject?.name === 'beating' && e.reason === 'ClaimReleased',
      )?.message;
    await expect.poll(releasedEvent, { timeout: 10_000, interval: 50 }).toContain('no heartbeat for 5m');
  });
});
