// The relocation API's refusals and preflight on two simulated hubs (api-scene.ts): bad requests that create
// nothing, and the findings a user meets per cluster, with their reasons and fixes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { EAST, WEST, type TwoHubBed } from './support.js';
import { checksOf, type Report, sceneKit, startScene } from './api-scene.js';

let bed: TwoHubBed;
const { post, relocations, operations, poolCluster } = sceneKit(() => bed);

beforeAll(async () => {
  bed = await startScene();
}, 120_000);

afterAll(() => bed?.close());

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
