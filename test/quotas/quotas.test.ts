// Team quotas through HTTP: each refusal names the team, the quota, its limit and the current use, and leaves
// nothing behind on the hub; /v1/teams shows what each team holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import type { ClusterClaim, ClusterPool } from '../../src/hive/pools/types.js';
import { parseGoDuration } from '../../src/hive/duration.js';
import { createBody, prerequisites, type Bed } from '../clusters/support.js';
import { as, HUB, live, problemOf, seen, startQuotaBed } from './support.js';

let bed: Bed;

beforeAll(async () => {
  bed = await startQuotaBed();
  for (const ns of ['alpha', 'gamma', 'delta', 'beta']) await prerequisites(bed, ns);
}, 60_000);

afterAll(async () => {
  await bed?.close();
});

const cd = (namespace: string, name: string) => ({ hub: HUB, namespace, name });

function poolBody(namespace: string, name: string, over: Record<string, unknown> = {}) {
  return {
    hub: HUB,
    namespace,
    name,
    platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
    baseDomain: 'ci.example.com',
    imageSetName: 'openshift-v4.16.3',
    pullSecretRef: 'pull-secret',
    size: 1,
    runningCount: 0,
    ...over,
  };
}

describe('clusters and runningClusters', () => {
  const alpha = () => as(bed, 'alpha');

  it('refuses a second running cluster, then a third cluster, naming the limit and the current use', async () => {
    const first = await alpha().post('/v1/clusters', createBody('alpha', 'a1'));
    expect(first.statusCode, first.body).toBe(202);
    await seen(bed, 'ClusterDeployment', cd('alpha', 'a1'));

    const running = await alpha().post('/v1/clusters', createBody('alpha', 'a2'));
    expect(running.statusCode).toBe(403);
    expect(running.headers['content-type']).toContain('application/problem+json');
    expect(problemOf(running)).toMatchObject({
      code: 'QuotaExceeded',
      team: 'alpha',
      quota: 'runningClusters',
      limit: 1,
      current: 1,
    });
    expect(problemOf(running).detail).toMatch(/team alpha has 1 running cluster of its quota of 1/);
    expect(await live(bed, 'ClusterDeployment', cd('alpha', 'a2'))).toBeUndefined();

    // Created hibernating, it takes a cluster but no running one.
    const asleep = await alpha().post('/v1/clusters', createBody('alpha', 'a2', { powerState: 'Hibernating' }));
    expect(asleep.statusCode, asleep.body).toBe(202);
    await seen(bed, 'ClusterDeployment', cd('alpha', 'a2'));

    const third = await alpha().post('/v1/clusters', createBody('alpha', 'a3', { powerState: 'Hibernating' }));
    expect(third.statusCode).toBe(403);
    expect(problemOf(third)).toMatchObject({ code: 'QuotaExceeded', quota: 'clusters', limit: 2, current: 2 });
    expect(await live(bed, 'ClusterDeployment', cd('alpha', 'a3'))).toBeUndefined();
    // Nothing written for it at all: not even the install-config Secret.
    expect(await live(bed, 'Secret', { hub: HUB, namespace: 'alpha', name: 'a3-install-config' })).toBeUndefined();
  }, 30_000);

  it('refuses a resume beyond runningClusters and leaves the cluster hibernating', async () => {
    // Installed and hibernated first: a resume of a cluster still installing is a 409 of its own.
    await seen<ClusterDeployment>(
      bed,
      'ClusterDeployment',
      cd('alpha', 'a2'),
      (o) => o?.spec.installed === true && o.status?.powerState === 'Hibernating',
      30_000,
    );
    const res = await alpha().post(`/v1/clusters/${HUB}/alpha/a2/resume`);
    expect(res.statusCode).toBe(403);
    expect(problemOf(res)).toMatchObject({ code: 'QuotaExceeded', quota: 'runningClusters', limit: 1, current: 1 });
    const a2 = await live<ClusterDeployment>(bed, 'ClusterDeployment', cd('alpha', 'a2'));
    expect(a2?.spec.powerState).toBe('Hibernating');
  }, 40_000);

  it('limits nothing for a team without quotas', async () => {
    const root = as(bed, 'root');
    for (const name of ['b1', 'b2', 'b3']) {
      const res = await root.post('/v1/clusters', createBody('beta', name));
      expect(res.statusCode, res.body).toBe(202);
    }
  });

  it('shows the use against the quotas in /v1/teams', async () => {
    const res = await alpha().get('/v1/teams');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      items: [
        {
          name: 'alpha',
          role: 'admin',
          namespaces: ['alpha'],
          pools: [],
          quotas: { clusters: 2, runningClusters: 1 },
          usage: { claims: 0, clusters: 2, runningClusters: 1 },
        },
      ],
    });
  });
});

describe('maxLifetimeHours for clusters', () => {
  const gamma = () => as(bed, 'gamma');

  it('gives a cluster created without an expiry the longest the quota allows', async () => {
    const res = await gamma().post('/v1/clusters', createBody('gamma', 'g1'));
    expect(res.statusCode, res.body).toBe(202);
    const g1 = await live<ClusterDeployment>(bed, 'ClusterDeployment', cd('gamma', 'g1'));
    expect(parseGoDuration(g1!.metadata.annotations!['hive.openshift.io/delete-after']!)).toBe(8 * 3600_000);
    await seen(bed, 'ClusterDeployment', cd('gamma', 'g1'));
  });

  it('refuses a cluster asked to live longer, and writes nothing', async () => {
    const res = await gamma().post('/v1/clusters', createBody('gamma', 'g2', { expiresIn: '9h' }));
    expect(res.statusCode).toBe(403);
    expect(problemOf(res)).toMatchObject({ code: 'QuotaExceeded', quota: 'maxLifetimeHours', limit: 8, current: 9 });
    expect(await live(bed, 'ClusterDeployment', cd('gamma', 'g2'))).toBeUndefined();
  });

  it('refuses an expiry beyond the quota from creation, or none at all; allows a nearer one', async () => {
    const url = `/v1/clusters/${HUB}/gamma/g1/expiry`;
    const far = await gamma().put(url, { expiresIn: '9h' });
    expect(far.statusCode).toBe(403);
    expect(problemOf(far)).toMatchObject({ code: 'QuotaExceeded', quota: 'maxLifetimeHours', limit: 8 });
    const none = await gamma().put(url, { expiresAt: null });
    expect(none.statusCode).toBe(403);
    expect(problemOf(none).detail).toMatch(/without an expiry/);
    const g1 = await live<ClusterDeployment>(bed, 'ClusterDeployment', cd('gamma', 'g1'));
    expect(parseGoDuration(g1!.metadata.annotations!['hive.openshift.io/delete-after']!)).toBe(8 * 3600_000);

    const near = await gamma().put(url, { expiresIn: '2h' });
    expect(near.statusCode, near.body).toBe(200);
  });

  it('refuses an extension past maxLifetimeHours from creation; allows one within it', async () => {
    const url = `/v1/clusters/${HUB}/gamma/g1/expiry/extend`;
    const far = await gamma().post(url, { extendBy: '7h', reason: 'the release slipped' });
    expect(far.statusCode).toBe(403);
    expect(problemOf(far)).toMatchObject({ code: 'QuotaExceeded', quota: 'maxLifetimeHours', limit: 8 });
    expect(problemOf(far).current).toBeGreaterThan(8);
    const ok = await gamma().post(url, { extendBy: '1h', reason: 'one more test run' });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('claims and their lifetimes', () => {
  const gamma = () => as(bed, 'gamma');
  const claimRef = (name: string) => ({ hub: HUB, namespace: 'gamma', name });

  it('refuses a claim longer than maxLifetimeHours, then a claim beyond the claims quota', async () => {
    const pool = await gamma().post('/v1/pools', poolBody('gamma', 'gpool'));
    expect(pool.statusCode, pool.body).toBe(201);
    await seen(bed, 'ClusterPool', { hub: HUB, namespace: 'gamma', name: 'gpool' });

    const long = await gamma().post('/v1/claims', { pool: `${HUB}/gamma/gpool`, name: 'c0', lifetime: '9h' });
    expect(long.statusCode).toBe(403);
    expect(problemOf(long)).toMatchObject({ code: 'QuotaExceeded', quota: 'maxLifetimeHours', limit: 8, current: 9 });
    expect(await live(bed, 'ClusterClaim', claimRef('c0'))).toBeUndefined();

    const first = await gamma().post('/v1/claims', { pool: `${HUB}/gamma/gpool`, name: 'c1' });
    expect(first.statusCode, first.body).toBe(201);
    await seen(bed, 'ClusterClaim', claimRef('c1'));

    const second = await gamma().post('/v1/claims', { pool: `${HUB}/gamma/gpool`, name: 'c2', lifetime: '1h' });
    expect(second.statusCode).toBe(403);
    expect(problemOf(second)).toMatchObject({
      code: 'QuotaExceeded',
      team: 'gamma',
      quota: 'claims',
      limit: 1,
      current: 1,
    });
    expect(await live(bed, 'ClusterClaim', claimRef('c2'))).toBeUndefined();
  }, 30_000);

  it('refuses an extension past maxLifetimeHours and keeps the lifetime', async () => {
    const url = `/v1/claims/${HUB}/gamma/c1`;
    const far = await gamma().patch(url, { lifetime: '9h' });
    expect(far.statusCode).toBe(403);
    expect(problemOf(far)).toMatchObject({ code: 'QuotaExceeded', quota: 'maxLifetimeHours', limit: 8, current: 9 });
    const c1 = await live<ClusterClaim>(bed, 'ClusterClaim', claimRef('c1'));
    expect(parseGoDuration(c1!.spec.lifetime!)).toBe(4 * 3600_000);
    const near = await gamma().patch(url, { extendBy: '2h' });
    expect(near.statusCode, near.body).toBe(200);
  });

  it('counts the claim and the pool in /v1/teams/gamma', async () => {
    const res = await gamma().get('/v1/teams/gamma');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'gamma',
      namespaces: [`${HUB}/gamma`],
      pools: [`${HUB}/gamma/gpool`],
      quotas: { claims: 1, maxLifetimeHours: 8 },
      usage: { claims: 1 },
    });
  });
});

describe('pools count toward clusters', () => {
  const delta = () => as(bed, 'delta');
  const ref = { hub: HUB, namespace: 'delta', name: 'dpool' };

  it('refuses a pool whose size exceeds the clusters quota, then a size increase past it', async () => {
    const big = await delta().post('/v1/pools', poolBody('delta', 'dpool', { size: 4 }));
    expect(big.statusCode).toBe(403);
    expect(problemOf(big)).toMatchObject({ code: 'QuotaExceeded', quota: 'clusters', limit: 3, current: 0 });
    expect(await live(bed, 'ClusterPool', ref)).toBeUndefined();
    expect(await live(bed, 'Secret', { hub: HUB, namespace: 'delta', name: 'dpool-install-config-template' })).toBe(
      undefined,
    );

    const fits = await delta().post('/v1/pools', poolBody('delta', 'dpool', { size: 2 }));
    expect(fits.statusCode, fits.body).toBe(201);
    await seen(bed, 'ClusterPool', ref);

    const grow = await delta().patch(`/v1/pools/${HUB}/delta/dpool`, { size: 4 });
    expect(grow.statusCode).toBe(403);
    expect(problemOf(grow)).toMatchObject({ code: 'QuotaExceeded', quota: 'clusters', limit: 3 });
    expect((await live<ClusterPool>(bed, 'ClusterPool', ref))?.spec.size).toBe(2);

    const ok = await delta().patch(`/v1/pools/${HUB}/delta/dpool`, { size: 3 });
    expect(ok.statusCode, ok.body).toBe(200);
    // Shrinking is never refused.
    const shrink = await delta().patch(`/v1/pools/${HUB}/delta/dpool`, { size: 1 });
    expect(shrink.statusCode, shrink.body).toBe(200);
  });
});
