import { describe, expect, it } from 'vitest';
import { claimQueue } from '../../src/hive/claims/claim-queue.js';
import { claimStatus, type ClaimContext } from '../../src/hive/claims/claim-status.js';
import { claimWaitSamples, installSamples } from '../../src/hive/claims/eta.js';
import type { ClusterClaim } from '../../src/hive/pools/types.js';
import { T0, at, cd, claim, pool } from './builders.js';

function ctx(claims: ClusterClaim[], over: Partial<ClaimContext> = {}): ClaimContext {
  return { now: T0 + 30 * 60_000, pool: pool('small'), cluster: undefined, queue: claimQueue(claims, { namespace: 'pools', name: 'small' }), poolClusters: [], recentWaitsMs: [], ...over };
}

describe('claim status in plain words', () => {
  it('reports queue positions FIFO by creation time, like Hive', () => {
    const claims = [claim('c', 3), claim('a', 1), claim('b', 2), claim('other', 0, { pool: 'big' }), claim('done', 0, { namespace: 'small-x' })];
    const third = claimStatus(claims[0]!, ctx(claims));
    expect(third).toMatchObject({ phase: 'Pending', reason: 'QueuedBehind', queue: { position: 3, ahead: 2 } });
    expect(third.message).toMatch(/^2 claims ahead in the queue/);
    expect(claimStatus(claims[1]!, ctx(claims)).queue).toEqual({ position: 1, ahead: 0 });
  });

  it('names the resume step of the cluster Hive is waking for this claim', () => {
    const claims = [claim('first', 1), claim('second', 2)];
    const poolClusters = [
      cd('small-old', 0, { spec: 'Running', status: 'WaitingForNodes' }),
      cd('small-new', 5, { spec: 'Running', status: 'StartingMachines' }),
    ];
    const first = claimStatus(claims[0]!, ctx(claims, { poolClusters }));
    expect(first).toMatchObject({ reason: 'ClusterResuming', step: { state: 'WaitingForNodes', step: '2/4', cluster: 'small-old/small-old' } });
    expect(first.message).toBe('no ready cluster; small-old is resuming, step 2/4: waiting for nodes');
    const second = claimStatus(claims[1]!, ctx(claims, { poolClusters }));
    expect(second.step?.cluster).toBe('small-new/small-new');
    expect(second.message).toContain('1 claim ahead in the queue');
  });

  it('explains capacity, missing dependencies, installs and a missing pool', () => {
    const c = [claim('a', 1)];
    const full = pool('small', { maxSize: 3, conditions: [{ type: 'CapacityAvailable', status: 'False', reason: 'MaxCapacity' }] });
    expect(claimStatus(c[0]!, ctx(c, { pool: full })).message).toContain('at capacity (maxSize 3)');
    const missing = pool('small', { conditions: [{ type: 'MissingDependencies', status: 'True', message: 'cluster image set missing' }] });
    expect(claimStatus(c[0]!, ctx(c, { pool: missing }))).toMatchObject({ reason: 'MissingDependencies', message: expect.stringContaining('cluster image set missing') });
    expect(claimStatus(c[0]!, ctx(c, { poolClusters: [cd('x', 0, { installed: false })] })).message).toBe('no ready cluster; 1 cluster installing');
    expect(claimStatus(c[0]!, ctx(c, { pool: undefined })).reason).toBe('PoolNotFound');
  });

  it('estimates time to ready from recent waits', () => {
    const c = [claim('a', 25)];
    const status = claimStatus(c[0]!, ctx(c, { recentWaitsMs: [10 * 60_000, 20 * 60_000, 12 * 60_000] }));
    // waited 5 of a typical 12 minutes
    expect(status.eta).toEqual({ seconds: 7 * 60, basis: 'the last 3 claims on this pool waited 12m (median)' });
    expect(claimStatus(c[0]!, ctx(c)).eta).toBeUndefined();
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
    expect(claimStatus(assigned, ctx([], { cluster }))).toMatchObject({ phase: 'Starting', message: 'cluster small-x assigned; it is resuming, step 4/4: waiting for cluster operators' });
    assigned.status!.conditions![1] = { type: 'ClusterRunning', status: 'True', reason: 'Running' };
    const running = claimStatus(assigned, ctx([], { cluster: { ...cluster, status: { powerState: 'Running' } } }));
    expect(running).toMatchObject({ phase: 'Running', lifetime: { lifetime: '2h', claimedAt: at(2), expiresAt: new Date(Date.parse(at(2)) + 2 * 3_600_000).toISOString() } });
    expect(claimStatus({ ...assigned, metadata: { ...assigned.metadata, deletionTimestamp: at(9) } }, ctx([])).phase).toBe('Releasing');
    // Hive says Resuming for a claimed cluster hibernated on purpose; the claim says Hibernating.
    assigned.status!.conditions![1] = { type: 'ClusterRunning', status: 'False', reason: 'Resuming' };
    const asleep = claimStatus(assigned, ctx([], { cluster: cd('small-x', 0, { claim: 'a', spec: 'Hibernating', status: 'WaitingForMachinesToStop' }) }));
    expect(asleep).toMatchObject({ phase: 'Hibernating', message: 'cluster small-x is waiting for machines to stop; resume it to use it' });
  });

  it('reads the pool history from its objects: claimed clusters vs their claims, and install durations', () => {
    const claimed = (name: string, claimName: string, claimedMin: number, installedMin?: number) => {
      const c = cd(name, 0, { claim: claimName });
      c.spec.clusterPoolRef!.claimedTimestamp = at(claimedMin);
      if (installedMin !== undefined) c.status = { ...c.status, installedTimestamp: at(installedMin) };
      return c;
    };
    const claims = [
      claim('fast', 10, { namespace: 'small-a' }),
      // ClusterRunning=True, when the claim reports it, is the time to ready (here 14m after creation).
      claim('slow', 20, { namespace: 'small-b', conditions: [{ type: 'ClusterRunning', status: 'True', reason: 'Running', lastTransitionTime: at(34) }] }),
      claim('gone-cluster', 5, { namespace: 'elsewhere' }),
    ];
    const clusters = [claimed('small-b', 'slow', 25, 40), claimed('small-a', 'fast', 12, 42), claimed('small-c', 'released', 1), cd('small-d', 50, { installed: false })];
    // Oldest claim first; a claimed cluster whose claim is gone, or a claim pointing elsewhere, says nothing.
    expect(claimWaitSamples(clusters, claims)).toEqual([2 * 60_000, 14 * 60_000]);
    expect(installSamples(clusters)).toEqual([40 * 60_000, 42 * 60_000]);
    expect(claimWaitSamples(clusters, claims, 1)).toEqual([14 * 60_000]);
  });

  it('a claim waiting for a build is estimated from install durations', () => {
    const c = [claim('a', 25)];
    const status = claimStatus(c[0]!, ctx(c, { poolClusters: [cd('x', 25, { installed: false })], recentWaitsMs: [60_000], installsMs: [40 * 60_000, 44 * 60_000] }));
    expect(status.reason).toBe('ClustersInstalling');
    expect(status.eta).toEqual({ seconds: 37 * 60, basis: 'the last 2 installs in this pool took 42m (median)' });
  });
});
