import { describe, expect, it } from 'vitest';
import { claimStatus } from '../../src/hive/claims/claim-status.js';
import { installSamples, poolHistory, resumeSamples } from '../../src/hive/claims/eta.js';
import { poolSupply } from '../../src/hive/claims/pool-supply.js';
import type { ClusterClaim, ClusterDeployment, ClusterPool } from '../../src/hive/pools/types.js';
import { T0, at, cd, claim, pool, started } from './builders.js';

const MINUTE = 60_000;
const NOW = T0 + 30 * MINUTE;

/** What the claim view reads: the pool, its claims and clusters as the cache holds them, at NOW. */
function statusOf(
  c: ClusterClaim,
  world: {
    claims?: ClusterClaim[];
    clusters?: ClusterDeployment[];
    pool?: ClusterPool | null;
    cluster?: ClusterDeployment;
    now?: number;
  } = {},
) {
  const p = world.pool === null ? undefined : (world.pool ?? pool('small'));
  const clusters = world.clusters ?? [];
  const claims = world.claims ?? [c];
  return claimStatus(c, {
    now: world.now ?? NOW,
    pool: p,
    cluster: world.cluster,
    supply: poolSupply(p ?? pool('small'), claims, clusters),
    history: poolHistory(clusters),
  });
}

/** A cluster of the pool that took `installMin` to install and `startMin` to start, created at `createdMin`. */
const veteran = (name: string, createdMin: number, installMin: number, startMin: number, claimName = 'old') =>
  started(
    cd(name, createdMin, { claim: claimName, installedMin: createdMin + installMin }),
    createdMin + installMin,
    createdMin + installMin + startMin,
  );

describe('claim status in plain words', () => {
  it('reports queue positions FIFO by creation time, like Hive', () => {
    const claims = [
      claim('c', 3),
      claim('a', 1),
      claim('b', 2),
      claim('other', 0, { pool: 'big' }),
      claim('done', 0, { namespace: 'small-x' }),
    ];
    const third = statusOf(claims[0]!, { claims });
    expect(third).toMatchObject({ phase: 'Pending', queue: { position: 3, ahead: 2 } });
    expect(third.message).toMatch(/^2 claims ahead in the queue \(Hive serves claims oldest first\); /);
    expect(statusOf(claims[1]!, { claims }).queue).toEqual({ position: 1, ahead: 0 });
    // A claim not in the cache yet (the answer to its own POST) goes last, where Hive will put it.
    expect(statusOf(claim('new', 4), { claims }).queue).toEqual({ position: 4, ahead: 3 });
  });

  it('names the resume step of the cluster Hive is waking for this claim, with an estimate from past resumes', () => {
    const claims = [claim('first', 1), claim('second', 2)];
    const resuming = cd('small-old', 0, { spec: 'Running', status: 'WaitingForNodes' });
    resuming.status!.conditions = [
      { type: 'Hibernating', status: 'False', reason: 'ResumingOrRunning', lastTransitionTime: at(28) },
    ];
    const clusters = [
      resuming,
      cd('small-new', 5, { spec: 'Running', status: 'StartingMachines' }),
      veteran('small-v', -100, 40, 6),
    ];
    const first = statusOf(claims[0]!, { claims, clusters });
    expect(first).toMatchObject({
      reason: 'ClusterResuming',
      step: { state: 'WaitingForNodes', step: '2/4', cluster: 'small-old/small-old' },
    });
    expect(first.message).toBe('no ready cluster; small-old is resuming, step 2/4: waiting for nodes');
    // The last resume in the pool took 6 minutes; this one started 2 minutes ago.
    expect(first.eta).toEqual({ seconds: 4 * 60, basis: 'the last resume in this pool took 6m' });
    const second = statusOf(claims[1]!, { claims, clusters });
    expect(second.step?.cluster).toBe('small-new/small-new');
    expect(second.message).toContain('1 claim ahead in the queue');
  });

  it('a cluster installing for the claim is said with its install step and an estimate from past installs, even when the pool is at maxSize', () => {
    // The field trial: one cluster claimed, its replacement installing for the next claim, maxSize 2 reached.
    const full = pool('small', {
      size: 1,
      maxSize: 2,
      conditions: [{ type: 'CapacityAvailable', status: 'False', reason: 'MaxCapacity' }],
    });
    const claims = [claim('held', 0, { namespace: 'small-v' }), claim('next', 25)];
    const replacement = cd('small-r', 20, { installed: false, stage: 'provisioning' });
    const clusters = [veteran('small-v', -60, 40, 5, 'held'), replacement];
    const status = statusOf(claims[1]!, { claims, clusters, pool: full });
    expect(status).toMatchObject({
      phase: 'Pending',
      reason: 'ClustersInstalling',
      step: {
        state: 'Provisioning',
        words: 'installing, creating the cluster (ClusterProvision provisioning)',
        cluster: 'small-r/small-r',
      },
      message:
        'no ready cluster; small-r is being installed for this claim (installing, creating the cluster (ClusterProvision provisioning))',
    });
    // Started 10 minutes ago, a typical install takes 40, then 5 to start: 35 minutes, not the 0 s of claims served from stock.
    expect(status.eta).toEqual({
      seconds: 35 * 60,
      basis: 'the last install in this pool took 40m; the last resume took 5m',
    });
    expect(
      statusOf(claims[1]!, {
        claims,
        clusters: [veteran('small-v', -60, 40, 5, 'held'), cd('small-r', 29, { installed: false, stage: 'images' })],
        pool: full,
      }).step,
    ).toMatchObject({ state: 'ResolvingImages' });
  });

  it('says "no estimate yet" instead of a number when the pool has no history', () => {
    const c = [claim('a', 1)];
    const building = statusOf(c[0]!, {
      claims: c,
      clusters: [cd('x', 1, { installed: false, stage: 'initializing' })],
    });
    expect(building).toMatchObject({ reason: 'ClustersInstalling', step: { state: 'ProvisionInitializing' } });
    expect(building.eta).toBeUndefined();
    expect(building.message).toMatch(/; no estimate yet: no install in this pool has finished$/);
    const creating = statusOf(c[0]!, { claims: c });
    expect(creating).toMatchObject({
      reason: 'ClustersInstalling',
      message:
        'no ready cluster; Hive is creating a cluster for this claim; no estimate yet: no install in this pool has finished',
    });
  });

  it('at capacity only when maxSize leaves no room for another cluster and none is coming', () => {
    const full = pool('small', { size: 1, maxSize: 1 });
    const claims = [claim('held', 0, { namespace: 'small-v' }), claim('next', 25)];
    const clusters = [veteran('small-v', -60, 40, 5, 'held')];
    expect(statusOf(claims[1]!, { claims, clusters, pool: full })).toMatchObject({
      reason: 'AtCapacity',
      message:
        'no ready cluster and the pool is at capacity (maxSize 1 counts every cluster: 1 claimed); it waits for a claimed cluster to be released',
    });
    expect(statusOf(claims[1]!, { claims, clusters, pool: full }).eta).toBeUndefined();
    // A released cluster on its way out frees the room.
    const leaving = veteran('small-v', -60, 40, 5, 'gone');
    leaving.metadata.annotations = { 'hive.openshift.io/remove-cluster-from-pool': 'true' };
    expect(statusOf(claims[1]!, { claims: [claims[1]!], clusters: [leaving], pool: full }).message).toContain(
      '(maxSize 1 counts every cluster: 0 claimed, 1 being removed); Hive builds one for this claim once the removed clusters are gone',
    );
  });

  it('queued behind earlier claims when maxConcurrent holds its install back', () => {
    const slow = pool('small', { size: 0, maxConcurrent: 1 });
    const claims = [claim('first', 1), claim('second', 2)];
    const clusters = [cd('small-a', 1, { installed: false }), veteran('small-v', -60, 40, 5)];
    const second = statusOf(claims[1]!, { claims, clusters, pool: slow });
    expect(second).toMatchObject({ reason: 'QueuedBehind', queue: { position: 2, ahead: 1 } });
    expect(second.message).toContain(
      'the pool works on at most 1 cluster at a time (maxConcurrent; 1 install running)',
    );
    // Two rounds of installs (the one running, then its own), then a start.
    expect(second.eta).toEqual({
      seconds: (2 * 40 + 5) * 60,
      basis: 'the last install in this pool took 40m; 2 rounds of installs; the last resume took 5m',
    });
  });

  it('missing dependencies matter only to a claim that needs a new cluster; a missing pool is said', () => {
    const missing = pool('small', {
      conditions: [{ type: 'MissingDependencies', status: 'True', message: 'cluster image set missing' }],
    });
    const claims = [claim('a', 1), claim('b', 2)];
    const clusters = [cd('small-a', 1, { installed: false })];
    expect(statusOf(claims[0]!, { claims, clusters, pool: missing }).reason).toBe('ClustersInstalling');
    expect(statusOf(claims[1]!, { claims, clusters, pool: missing })).toMatchObject({
      reason: 'MissingDependencies',
      message: expect.stringContaining('cluster image set missing'),
    });
    expect(statusOf(claims[0]!, { pool: null }).reason).toBe('PoolNotFound');
  });

  it('never shows an artefact of two caches seen at different moments', () => {
    // Hive wrote the cluster's claimName, and the claim's spec.namespace has not reached the cache yet. The pool is
    // at maxSize (the replacement is installing) and its status still says ready 1: neither may show through.
    const full = pool('small', {
      size: 1,
      maxSize: 2,
      ready: 1,
      conditions: [{ type: 'CapacityAvailable', status: 'False', reason: 'MaxCapacity' }],
    });
    const mine = claim('mine', 25);
    const taken = cd('small-v', 0, { claim: 'mine', spec: 'Running', status: 'Running', installedMin: 10 });
    const clusters = [taken, cd('small-r', 26, { installed: false })];
    expect(statusOf(mine, { claims: [mine], clusters, pool: full })).toMatchObject({
      phase: 'Starting',
      reason: 'ClusterStarting',
      message: 'cluster small-v assigned and running; Hive is handing it over',
    });
    // The other way round: the claim names its cluster, whose claimName the cache has not seen. A claim behind it
    // is not told that cluster is free for it.
    const first = claim('first', 20, { namespace: 'small-v' });
    const next = claim('next', 21);
    const unclaimed = cd('small-v', 0, { spec: 'Running', status: 'Running', installedMin: 10 });
    const behind = statusOf(next, {
      claims: [first, next],
      clusters: [unclaimed, cd('small-r', 26, { installed: false })],
      pool: full,
    });
    expect(behind).toMatchObject({
      reason: 'ClustersInstalling',
      queue: { position: 1, ahead: 0 },
      step: { cluster: 'small-r/small-r' },
    });
    expect(
      statusOf(first, { claims: [first, next], clusters: [unclaimed], cluster: unclaimed, pool: full }),
    ).toMatchObject({ phase: 'Starting', reason: 'ClusterStarting' });
    // The claim names a cluster the cache does not show yet: assigning, not waiting for capacity.
    expect(statusOf(first, { claims: [first], clusters: [], pool: full })).toMatchObject({
      phase: 'Starting',
      message: 'cluster small-v assigned; waiting for it to appear',
    });
  });

  it('follows an assigned claim to running and shows when its lifetime ends', () => {
    const assigned = claim('a', 1, {
      namespace: 'small-x',
      statusLifetime: '2h',
      conditions: [
        { type: 'Pending', status: 'False', reason: 'ClusterClaimed', lastTransitionTime: at(2) },
        { type: 'ClusterRunning', status: 'False', reason: 'Resuming' },
      ],
    });
    const cluster = cd('small-x', 0, { claim: 'a', spec: 'Running', status: 'WaitingForClusterOperators' });
    expect(statusOf(assigned, { cluster, clusters: [cluster] })).toMatchObject({
      phase: 'Starting',
      message: 'cluster small-x assigned; it is resuming, step 4/4: waiting for cluster operators',
    });
    assigned.status!.conditions![1] = { type: 'ClusterRunning', status: 'True', reason: 'Running' };
    const running = statusOf(assigned, { cluster: { ...cluster, status: { powerState: 'Running' } } });
    expect(running).toMatchObject({
      phase: 'Running',
      lifetime: {
        lifetime: '2h',
        claimedAt: at(2),
        expiresAt: new Date(Date.parse(at(2)) + 2 * 3_600_000).toISOString(),
      },
    });
    expect(statusOf({ ...assigned, metadata: { ...assigned.metadata, deletionTimestamp: at(9) } }).phase).toBe(
      'Releasing',
    );
    // Hive says Resuming for a claimed cluster hibernated on purpose; the claim says Hibernating.
    assigned.status!.conditions![1] = { type: 'ClusterRunning', status: 'False', reason: 'Resuming' };
    const asleep = statusOf(assigned, {
      cluster: cd('small-x', 0, { claim: 'a', spec: 'Hibernating', status: 'WaitingForMachinesToStop' }),
    });
    expect(asleep).toMatchObject({
      phase: 'Hibernating',
      message: 'cluster small-x is waiting for machines to stop; resume it to use it',
    });
  });

  it('reads the pool history from its clusters: install durations and the last start of each running cluster', () => {
    const clusters = [
      veteran('small-a', 0, 42, 7),
      veteran('small-b', 10, 40, 5),
      // Never installed, or running without a recorded start (e.g. a platform Hive cannot hibernate): no sample.
      cd('small-c', 50, { installed: false }),
      cd('small-d', 0, {
        status: 'Running',
        installedMin: 30,
        conditions: [{ type: 'Hibernating', status: 'False', reason: 'Unsupported', lastTransitionTime: at(30) }],
      }),
    ];
    expect(installSamples(clusters)).toEqual([30 * MINUTE, 42 * MINUTE, 40 * MINUTE]);
    expect(resumeSamples(clusters)).toEqual([7 * MINUTE, 5 * MINUTE]);
    expect(installSamples(clusters, 1)).toEqual([40 * MINUTE]);
  });
});
