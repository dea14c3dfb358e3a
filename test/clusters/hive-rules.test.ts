// The pure Hive rules the cluster API is built on: Go durations, ParseBool, delete-after math, label selectors and
// the lifecycle phase read from Hive's conditions (REFERENCE.md §2.3-2.6).
import { describe, expect, it } from 'vitest';
import { deleteAfterFor, expiresAt } from '../../src/hive/delete-after.js';
import {
  formatGoDuration,
  invalidDurationMessage,
  isCrdDuration,
  parseGoDuration,
  parseGoDurationNs,
} from '../../src/hive/duration.js';
import { isTruthy } from '../../src/hive/go-bool.js';
import { matchesLabels, parseLabelSelector } from '../../src/hive/label-selector.js';
import { lifecyclePhase } from '../../src/hive/phase.js';
import type { ClusterDeployment, Condition } from '../../src/hive/types.js';
import { createTokenBucket } from '../../src/kube/rate-limiter.js';

const H = 3_600_000;

describe('Go durations', () => {
  it('parse like time.ParseDuration, with no d unit', () => {
    expect(parseGoDuration('8h')).toBe(8 * H);
    expect(parseGoDuration('1h30m')).toBe(1.5 * H);
    expect(parseGoDuration('1.5h')).toBe(1.5 * H);
    expect(parseGoDuration('90s')).toBe(90_000);
    expect(parseGoDuration('0')).toBe(0);
    expect(parseGoDuration('2d')).toBeUndefined();
    expect(parseGoDuration('8')).toBeUndefined();
    expect(parseGoDuration('')).toBeUndefined();
    expect(isCrdDuration('8h')).toBe(true);
    expect(isCrdDuration('0')).toBe(false);
    expect(isCrdDuration('-1h')).toBe(false);
  });

  it("refuse what overflows Go's int64 nanoseconds, as time.ParseDuration does", () => {
    expect(parseGoDuration('99999999999999999h')).toBeUndefined();
    expect(parseGoDuration('2562048h')).toBeUndefined();
    expect(parseGoDuration('2562047h47m16.854775808s')).toBeUndefined();
    expect(parseGoDurationNs('2562047h47m16.854775807s')).toBe((1n << 63n) - 1n);
    expect(parseGoDurationNs('-2562047h47m16.854775808s')).toBe(-(1n << 63n));
    expect(parseGoDurationNs('1.5µs')).toBe(1500n);
    expect(parseGoDuration('.5s')).toBe(500);
    expect(parseGoDuration('h')).toBeUndefined();
    expect(isCrdDuration('99999999999999999h')).toBe(false);
    expect(invalidDurationMessage('99999999999999999h')).toBe('time: invalid duration "99999999999999999h"');
  });

  it('format in whole seconds, shortest form, rounding up', () => {
    expect(formatGoDuration(8 * H)).toBe('8h');
    expect(formatGoDuration(1.5 * H + 5_000)).toBe('1h30m5s');
    expect(formatGoDuration(1)).toBe('1s');
    expect(formatGoDuration(0)).toBe('0s');
    expect(parseGoDuration(formatGoDuration(26 * H + 61_000))).toBe(26 * H + 61_000);
  });
});

describe('ParseBool', () => {
  it("accepts exactly Go's true spellings", () => {
    for (const v of ['1', 't', 'T', 'TRUE', 'true', 'True']) expect(isTruthy(v)).toBe(true);
    for (const v of ['yes', 'on', 'tRuE', 'false', '', undefined]) expect(isTruthy(v)).toBe(false);
  });
});

describe('delete-after', () => {
  it('counts from creationTimestamp and never expires earlier than asked', () => {
    const created = '2026-11-21T10:00:00Z';
    expect(deleteAfterFor(created, new Date('2026-11-21T18:00:00Z'))).toBe('8h');
    expect(deleteAfterFor(created, new Date('2026-11-21T18:00:00.200Z'))).toBe('8h1s'); // rounded up
    expect(expiresAt(created, '8h')?.toISOString()).toBe('2026-11-21T18:00:00.000Z');
    expect(expiresAt(created, '2d')).toBeUndefined();
    expect(() => deleteAfterFor(created, new Date('2026-11-21T09:00:00Z'))).toThrow();
  });
});

describe('label selectors', () => {
  it('match like the API server, with != and notin matching missing keys', () => {
    const sel = (s: string, labels?: Record<string, string>) => matchesLabels(parseLabelSelector(s), labels);
    expect(sel('env=prod', { env: 'prod' })).toBe(true);
    expect(sel('env!=prod', {})).toBe(true);
    expect(sel('env notin (prod)', {})).toBe(true);
    expect(sel('env in (prod,dev),tier', { env: 'dev', tier: 'web' })).toBe(true);
    expect(sel('!legacy', { legacy: '' })).toBe(false);
    expect(() => parseLabelSelector('env in prod')).toThrow(/labelSelector/);
  });
});

const cond = (type: string, status: Condition['status'], reason: string, message = ''): Condition => ({
  type,
  status,
  reason,
  message,
});
function cd(
  spec: Partial<ClusterDeployment['spec']>,
  status: ClusterDeployment['status'] = {},
  meta: Partial<ClusterDeployment['metadata']> = {},
): ClusterDeployment {
  return {
    metadata: { name: 'c', namespace: 'n', ...meta },
    spec: { clusterName: 'c', baseDomain: 'example.com', platform: { aws: { region: 'r' } }, ...spec },
    status,
  };
}

describe('lifecycle phase', () => {
  it("reads provisioning, failure and stop from the CD controller's conditions", () => {
    expect(lifecyclePhase(cd({})).phase).toBe('Provisioning');
    expect(
      lifecyclePhase(
        cd({}, { conditions: [cond('RequirementsMet', 'False', 'ClusterImageSetNotFound', 'no imageset')] }),
      ),
    ).toMatchObject({
      phase: 'Provisioning',
      reason: 'ClusterImageSetNotFound',
    });
    expect(
      lifecyclePhase(
        cd({}, { installRestarts: 2, conditions: [cond('ProvisionFailed', 'True', 'AWSInsufficientCapacity')] }),
      ).phase,
    ).toBe('ProvisionFailed');
    expect(
      lifecyclePhase(
        cd(
          {},
          {
            conditions: [
              cond('ProvisionFailed', 'True', 'X'),
              cond('ProvisionStopped', 'True', 'InstallAttemptsLimitReached'),
            ],
          },
        ),
      ),
    ).toMatchObject({ phase: 'ProvisionStopped', reason: 'InstallAttemptsLimitReached' });
  });

  it('reads power from status.powerState, with the resume step', () => {
    expect(lifecyclePhase(cd({ installed: true })).phase).toBe('Installed');
    expect(lifecyclePhase(cd({ installed: true }, { powerState: 'Running' })).phase).toBe('Running');
    expect(lifecyclePhase(cd({ installed: true }, { powerState: 'WaitingForMachinesToStop' })).phase).toBe('Stopping');
    expect(lifecyclePhase(cd({ installed: true }, { powerState: 'Hibernating' })).phase).toBe('Hibernating');
    expect(lifecyclePhase(cd({ installed: true }, { powerState: 'PausingForClusterOperatorsToSettle' }))).toMatchObject(
      {
        phase: 'Resuming',
        step: { index: 3, of: 4, state: 'PausingForClusterOperatorsToSettle' },
      },
    );
  });

  it('names Unsupported, paused, deprovisioning and relocation', () => {
    const unsupported = [
      cond('Hibernating', 'False', 'Unsupported', 'Unsupported platform: no actuator to handle it'),
      cond('Ready', 'True', 'Running'),
    ];
    expect(lifecyclePhase(cd({ installed: true }, { powerState: 'Running', conditions: unsupported })).phase).toBe(
      'Unsupported',
    );
    expect(
      lifecyclePhase(
        cd({ installed: true }, { powerState: 'Unknown', conditions: [cond('Ready', 'Unknown', 'PowerStatePaused')] }),
      ).phase,
    ).toBe('Unknown');
    expect(lifecyclePhase(cd({ installed: true }, {}, { deletionTimestamp: '2026-01-01T00:00:00Z' })).phase).toBe(
      'Deprovisioning',
    );
    expect(
      lifecyclePhase(
        cd(
          { installed: true },
          { conditions: [cond('Provisioned', 'False', 'DeprovisionFailed')] },
          { deletionTimestamp: '2026-01-01T00:00:00Z' },
        ),
      ).phase,
    ).toBe('DeprovisionFailed');
    expect(
      lifecyclePhase(cd({ installed: true }, {}, { annotations: { 'hive.openshift.io/relocate': 'move-1/outgoing' } }))
        .phase,
    ).toBe('Relocating');
    expect(
      lifecyclePhase(
        cd(
          { installed: true },
          { powerState: 'Running' },
          { annotations: { 'hive.openshift.io/relocate': 'move-1/complete' } },
        ),
      ).phase,
    ).toBe('Running');
  });
});

describe('token bucket', () => {
  it('lets a burst through at once and then paces to the rate', async () => {
    let now = 0;
    const bucket = createTokenBucket({ qps: 10, burst: 3 }, () => now);
    for (let i = 0; i < 3; i++) await bucket.take();
    let fourth = false;
    const pending = bucket.take().then(() => (fourth = true));
    await Promise.resolve();
    expect(fourth).toBe(false);
    now += 100; // one token at 10 QPS
    await pending;
    expect(fourth).toBe(true);
  });
});
