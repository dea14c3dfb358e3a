// Pools end to end (flow-bed.ts): summaries, settings, problems in plain words, and claim lifetimes under an
// ExpiryPolicy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimView } from '../../src/services/claims/claim-view.js';
import type { ClusterClaim } from '../../src/hive/pools/types.js';
import { flowApi, poolWaiter, startFlowBed } from './flow-bed.js';
import { poolRequest, type ClaimsHarness } from './support.js';

let h: ClaimsHarness;
const api = flowApi(() => h);
const poolWhere = poolWaiter(() => h);

beforeAll(async () => {
  ({ h } = await startFlowBed());
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
