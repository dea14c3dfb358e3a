// The pure preflight and plan rules (src/hive/relocation) on built ClusterDeployments: the cases two simulated
// hubs cannot easily stage (a pending claim, a platform that cannot hibernate, Hive mid-relocation) and the plan.
import { describe, expect, it } from 'vitest';
import { etaOf, seedStatus } from '../../src/hive/relocation/plan.js';
import { isOwnRelocate, preflightChecks, referencedSecrets } from '../../src/hive/relocation/preflight-rules.js';
import type { ClusterFacts } from '../../src/hive/relocation/preflight-facts.js';
import type { ClusterDeployment } from '../../src/hive/types.js';

function cd(
  over: { spec?: Partial<ClusterDeployment['spec']>; status?: ClusterDeployment['status']; meta?: object } = {},
) {
  return {
    metadata: { name: 'c1', namespace: 'ns', ...over.meta },
    spec: {
      clusterName: 'c1',
      baseDomain: 'example.com',
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
      pullSecretRef: { name: 'pull-secret' },
      installed: true,
      clusterMetadata: { clusterID: 'x', infraID: 'y', adminKubeconfigSecretRef: { name: 'c1-admin-kubeconfig' } },
      ...over.spec,
    },
    status: over.status ?? {
      powerState: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', reason: 'Running' },
        { type: 'Hibernating', status: 'False', reason: 'ResumingOrRunning' },
      ],
    },
  } as ClusterDeployment;
}

const facts = (over: Partial<ClusterFacts> = {}): ClusterFacts => ({
  from: 'east',
  to: 'west',
  destination: { reachable: true, hiveCrdsPresent: true },
  destinationCd: false,
  conflicting: [],
  missingSecrets: [],
  namespaceCds: 1,
  matchingRelocates: [],
  otherRelocations: [],
  ...over,
});

const names = (checks: Array<{ check: string; severity: string }>) => checks.map((c) => `${c.severity} ${c.check}`);

describe('preflight rules', () => {
  it('a settled, installed cluster with everything in place has nothing to say', () => {
    expect(preflightChecks(cd(), facts())).toEqual([]);
  });

  it('names the Secrets Hive needs after the move, each with the field naming it', () => {
    expect(referencedSecrets(cd())).toEqual([
      { field: 'spec.platform.aws.credentialsSecretRef', name: 'aws-creds' },
      { field: 'spec.pullSecretRef', name: 'pull-secret' },
      { field: 'spec.clusterMetadata.adminKubeconfigSecretRef', name: 'c1-admin-kubeconfig' },
    ]);
    const checks = preflightChecks(
      cd(),
      facts({ missingSecrets: [{ field: 'spec.pullSecretRef', name: 'pull-secret' }] }),
    );
    expect(checks[0]).toMatchObject({
      check: 'secrets',
      severity: 'error',
      fix: 'create Secret pull-secret in ns on east',
    });
  });

  it('a platform that cannot hibernate (spec Hibernating, Hive reports Running) is not mid-transition', () => {
    const unsupported = cd({
      spec: { powerState: 'Hibernating' },
      status: {
        powerState: 'Running',
        conditions: [
          { type: 'Hibernating', status: 'False', reason: 'Unsupported' },
          { type: 'Ready', status: 'True', reason: 'Running' },
        ],
      },
    });
    expect(preflightChecks(unsupported, facts())).toEqual([]);
  });

  it('a hibernating cluster moves; one asked to resume and not started yet does not', () => {
    const asleep = {
      powerState: 'Hibernating' as const,
      conditions: [
        { type: 'Hibernating', status: 'True' as const, reason: 'Hibernating' },
        { type: 'Ready', status: 'False' as const, reason: 'StoppingOrHibernating' },
      ],
    };
    expect(preflightChecks(cd({ spec: { powerState: 'Hibernating' }, status: asleep }), facts())).toEqual([]);
    expect(names(preflightChecks(cd({ spec: { powerState: 'Running' }, status: asleep }), facts()))).toEqual([
      'error power-transition',
    ]);
  });

  it('refuses a cluster Hive is relocating, a deleted one, an uninstalled one, and a claim still pending', () => {
    const moving = cd({ meta: { annotations: { 'hive.openshift.io/relocate': 'other/outgoing' } } });
    expect(names(preflightChecks(moving, facts()))).toContain('error relocating');
    const labelled = cd({ meta: { labels: { 'beekeeper.io/relocation': 'reloc-1' } } });
    expect(names(preflightChecks(labelled, facts()))).toEqual(['error relocating']);
    // Its own relocation re-running preflight (the wave's label is on it) has nothing against it.
    expect(preflightChecks(labelled, facts({ relocationId: 'reloc-1' }))).toEqual([]);
    const deleting = cd({ meta: { deletionTimestamp: '2026-01-01T00:00:00Z' } });
    expect(names(preflightChecks(deleting, facts()))).toEqual(['error deleting']);
    expect(names(preflightChecks(cd({ spec: { installed: false }, status: {} }), facts()))).toEqual([
      'error installed',
    ]);
    const claimed = cd({ spec: { clusterPoolRef: { namespace: 'pools', poolName: 'p', claimName: 'mine' } } });
    expect(names(preflightChecks(claimed, facts({ claimPending: true })))).toEqual(['error claim-pending']);
    expect(names(preflightChecks(claimed, facts({ claimPending: false })))).toEqual(['info pool-cluster']);
  });

  it('an unreachable destination and a missing image set everywhere are errors with their fix', () => {
    const down = preflightChecks(
      cd({ spec: { provisioning: { imageSetRef: { name: 'ocp-4.18' } } } }),
      facts({
        destination: { reachable: false, hiveCrdsPresent: false, message: 'connect ECONNREFUSED' },
        imageSet: { name: 'ocp-4.18', onSource: false, onDestination: false },
      }),
    );
    expect(names(down)).toEqual(['error destination-reachable', 'error image-set']);
    expect(down[0]!.message).toContain('ECONNREFUSED');
  });

  it("recognises the relocation's own ClusterRelocate by its exact selector", () => {
    const own = {
      metadata: { name: 'r' },
      spec: { clusterDeploymentSelector: { matchLabels: { 'beekeeper.io/relocation': 'reloc-1' } } },
    };
    expect(isOwnRelocate(own, 'reloc-1')).toBe(true);
    expect(isOwnRelocate(own, 'reloc-2')).toBe(false);
    expect(isOwnRelocate(own, undefined)).toBe(false);
  });
});

describe('the plan', () => {
  const planned = (ok: boolean[]) => ok.map((o, i) => ({ namespace: 'ns', name: `c${i}`, ok: o, checks: [] }));

  it('puts the clusters that pass in waves of the given size, in order; those that fail never move', () => {
    const status = seedStatus(planned([true, false, true, true, true, true]), { from: 'east', size: 2 });
    expect(status.clusters!.map((c) => `${c.name}:${c.wave}:${c.state}`)).toEqual([
      'c0:1:pending',
      'c1:1:preflight-failed',
      'c2:1:pending',
      'c3:2:pending',
      'c4:2:pending',
      'c5:3:pending',
    ]);
    expect(status.waves).toEqual({ total: 3, done: 0 });
    expect(seedStatus(planned([true, true, true]), { from: 'east' }).waves).toEqual({ total: 1, done: 0 });
  });

  it('estimates the end from the pace of the waves done', () => {
    const now = Date.parse('2026-01-01T01:00:00Z');
    const status = { phase: 'Running' as const, startedAt: '2026-01-01T00:00:00Z', waves: { total: 4, done: 2 } };
    expect(etaOf(status, now)).toBe('2026-01-01T02:00:00.000Z');
    expect(etaOf({ ...status, waves: { total: 4, done: 0 } }, now)).toBeUndefined();
    expect(etaOf({ ...status, phase: 'Succeeded' }, now)).toBeUndefined();
  });
});
