import { describe, expect, it } from 'vitest';
import { powerEligibility, targetMatch, longHibernationFlag } from '../../src/hive/schedule/index.js';
import type { ClusterDeployment } from '../../src/hive/types.js';

function cd(
  over: {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    spec?: Partial<ClusterDeployment['spec']>;
    status?: ClusterDeployment['status'];
    deleting?: boolean;
  } = {},
): ClusterDeployment {
  return {
    metadata: {
      name: 'c1',
      namespace: 'team-a',
      labels: over.labels,
      annotations: over.annotations,
      ...(over.deleting ? { deletionTimestamp: '2026-06-01T00:00:00Z' } : {}),
    },
    spec: {
      clusterName: 'c1',
      baseDomain: 'example.com',
      platform: {},
      installed: true,
      powerState: 'Running',
      ...over.spec,
    },
    status: {
      powerState: 'Running',
      conditions: [{ type: 'Hibernating', status: 'False', reason: 'ResumingOrRunning' }],
      ...over.status,
    },
  };
}

describe('which clusters a scheduled action may touch', () => {
  it('never touches an unclaimed pool cluster, but a claimed one is fair game', () => {
    const unclaimed = cd({ spec: { installed: true, clusterPoolRef: { namespace: 'pools', poolName: 'ci' } } });
    expect(powerEligibility(unclaimed, 'hibernate')).toMatchObject({ ok: false, reason: 'UnclaimedPoolCluster' });
    const claimed = cd({
      spec: { installed: true, clusterPoolRef: { namespace: 'pools', poolName: 'ci', claimName: 'mine' } },
    });
    expect(powerEligibility(claimed, 'hibernate')).toEqual({ ok: true });
  });

  it('skips deleting, relocating, uninstalled, paused, unsupported and mid-transition clusters with a reason', () => {
    expect(powerEligibility(cd({ deleting: true }), 'hibernate')).toMatchObject({ reason: 'Deleting' });
    expect(
      powerEligibility(cd({ annotations: { 'hive.openshift.io/relocate': 'move/outgoing' } }), 'hibernate'),
    ).toMatchObject({ reason: 'Relocating' });
    expect(powerEligibility(cd({ spec: { installed: false } }), 'hibernate')).toMatchObject({ reason: 'NotInstalled' });
    expect(
      powerEligibility(cd({ annotations: { 'hive.openshift.io/powerstate-pause': 'True' } }), 'hibernate'),
    ).toMatchObject({ reason: 'PowerStatePaused' });
    expect(
      powerEligibility(
        cd({
          status: {
            powerState: 'Running',
            conditions: [
              {
                type: 'Hibernating',
                status: 'False',
                reason: 'Unsupported',
                message: 'Unsupported platform: no actuator to handle it',
              },
            ],
          },
        }),
        'hibernate',
      ),
    ).toMatchObject({ reason: 'Unsupported', message: 'Unsupported platform: no actuator to handle it' });
    expect(powerEligibility(cd({ status: { powerState: 'WaitingForNodes' } }), 'hibernate')).toMatchObject({
      reason: 'InTransition',
    });
    expect(
      powerEligibility(
        cd({ spec: { installed: true, powerState: 'Hibernating' }, status: { powerState: 'Stopping' } }),
        'hibernate',
      ),
    ).toMatchObject({ reason: 'AlreadyInState' });
    expect(
      powerEligibility(
        cd({ spec: { installed: true, powerState: 'Hibernating' }, status: { powerState: 'Hibernating' } }),
        'resume',
      ),
    ).toEqual({ ok: true });
  });

  it("a caller's waived refusals are passed over for the next one, in the same order (a person's request)", () => {
    const waive = ['UnclaimedPoolCluster', 'InTransition'] as const;
    const pooled = { installed: true, clusterPoolRef: { namespace: 'pools', poolName: 'ci' } };
    expect(powerEligibility(cd({ spec: pooled, deleting: true }), 'hibernate', { waive })).toMatchObject({
      reason: 'Deleting',
    });
    expect(powerEligibility(cd({ spec: { ...pooled, installed: false } }), 'hibernate', { waive })).toMatchObject({
      reason: 'NotInstalled',
    });
    expect(powerEligibility(cd({ status: { powerState: 'WaitingForNodes' } }), 'hibernate', { waive })).toEqual({
      ok: true,
    });
  });
});

describe('targeting', () => {
  const targets = { namespaces: ['team-a'], labelSelector: { matchLabels: { env: 'dev' } } };
  it('matches by namespace and selector; labels opt single clusters in or out', () => {
    expect(targetMatch('nightly', targets, 'local', cd({ labels: { env: 'dev' } })).matched).toBe(true);
    expect(targetMatch('nightly', targets, 'local', cd({ labels: { env: 'prod' } })).matched).toBe(false);
    expect(
      targetMatch(
        'nightly',
        targets,
        'local',
        cd({ labels: { env: 'dev', 'beekeeper.io/hibernation-opt-out': 'true' } }),
      ),
    ).toMatchObject({ matched: false, why: expect.stringMatching(/opted out/) });
    expect(
      targetMatch(
        'nightly',
        targets,
        'local',
        cd({ labels: { env: 'prod', 'beekeeper.io/hibernation-schedule': 'nightly' } }),
      ).matched,
    ).toBe(true);
    expect(
      targetMatch(
        'nightly',
        targets,
        'local',
        cd({ labels: { env: 'dev', 'beekeeper.io/hibernation-schedule': 'weekend' } }),
      ).matched,
    ).toBe(false);
    expect(
      targetMatch('nightly', { ...targets, requireOptIn: true }, 'local', cd({ labels: { env: 'dev' } })).matched,
    ).toBe(false);
    expect(targetMatch('nightly', { hubs: ['east'] }, 'local', cd()).matched).toBe(false);
    expect(
      targetMatch(
        'nightly',
        { labelSelector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] } },
        'local',
        cd({ labels: { env: 'dev' } }),
      ).matched,
    ).toBe(true);
  });

  it('flags clusters hibernated for close to 90 days', () => {
    const since = Date.parse('2026-01-01T00:00:00Z');
    expect(longHibernationFlag(since, since + 79 * 86_400_000)).toBeUndefined();
    expect(longHibernationFlag(since, since + 85 * 86_400_000)).toMatchObject({
      hibernatedDays: 85,
      message: expect.stringMatching(/2026-04-01/),
    });
  });
});
