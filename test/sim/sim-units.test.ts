import { describe, expect, it } from 'vitest';
import { isTruthy } from '../../src/hive/go-bool.js';
import type { Condition } from '../../src/hive/types.js';
import { formatGoDuration, parseGoDuration } from '../../src/sim/hive/go-values.js';
import { setCondition, sortCdConditions } from '../../src/sim/hive/conditions.js';
import { selectorMatches } from '../../src/hive/label-selector.js';
import { nameWithSuffix } from '../../src/sim/hive/names.js';
import { defaultDurations, installTime, resolveDurations } from '../../src/sim/durations.js';
import {
  clusterDeploymentAdmission,
  clusterPoolAdmission,
  machinePoolAdmission,
} from '../../src/sim/admission/index.js';
import type { AdmissionRequest } from '../../src/sim/apiserver/admission.js';

const cond = (type: string, status: Condition['status']): Condition => ({ type, status });

describe('Go value formats', () => {
  it('parses durations as Go does, with no day unit', () => {
    expect(parseGoDuration('8h')).toBe(8 * 3_600_000);
    expect(parseGoDuration('1h30m')).toBe(90 * 60_000);
    expect(parseGoDuration('1.5s')).toBe(1500);
    expect(() => parseGoDuration('1d')).toThrow();
    expect(() => parseGoDuration('')).toThrow();
  });
  it('formats metav1.Duration like time.Duration.String', () => {
    expect(formatGoDuration(8 * 3_600_000)).toBe('8h0m0s');
    expect(formatGoDuration(30 * 60_000)).toBe('30m0s');
    expect(formatGoDuration(90_500)).toBe('1m30.5s');
  });
  it('treats exactly strconv.ParseBool true strings as truthy', () => {
    for (const t of ['1', 't', 'T', 'TRUE', 'true', 'True']) expect(isTruthy(t)).toBe(true);
    for (const f of ['yes', 'on', 'tRue', '', undefined]) expect(isTruthy(f)).toBe(false);
  });
});

describe('condition bookkeeping', () => {
  it('sorts undesired first, then desired, then Unknown, alphabetically within each', () => {
    const sorted = sortCdConditions([
      cond('Ready', 'Unknown'),
      cond('Provisioned', 'True'),
      cond('ProvisionFailed', 'True'),
      cond('DNSNotReady', 'False'),
      cond('RequirementsMet', 'False'),
      cond('Hibernating', 'False'),
      cond('AuthenticationFailure', 'Unknown'),
    ]);
    expect(sorted.map((c) => `${c.type}=${c.status}`)).toEqual([
      'Hibernating=False',
      'ProvisionFailed=True',
      'RequirementsMet=False',
      'DNSNotReady=False',
      'Provisioned=True',
      'AuthenticationFailure=Unknown',
      'Ready=Unknown',
    ]);
  });
  it('moves lastTransitionTime only when the status changes', () => {
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    let c = setCondition([], 'Ready', 'False', 'A', 'a', t0);
    c = setCondition(c, 'Ready', 'False', 'B', 'b', t0 + 5000);
    expect(c[0]).toMatchObject({
      reason: 'B',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      lastProbeTime: '2026-01-01T00:00:05Z',
    });
    c = setCondition(c, 'Ready', 'True', 'B', 'b', t0 + 9000);
    expect(c[0]!.lastTransitionTime).toBe('2026-01-01T00:00:09Z');
  });
});

describe('label selectors and names', () => {
  it('matches matchLabels and every matchExpressions operator; an empty selector matches all', () => {
    const labels = { env: 'prod', tier: 'web' };
    expect(selectorMatches({}, labels)).toBe(true);
    expect(selectorMatches({ matchLabels: { env: 'prod' } }, labels)).toBe(true);
    expect(selectorMatches({ matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }] }, labels)).toBe(
      false,
    );
    expect(selectorMatches({ matchExpressions: [{ key: 'x', operator: 'NotIn', values: ['a'] }] }, labels)).toBe(true);
    expect(selectorMatches({ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, labels)).toBe(false);
  });
  it('keeps pool namespace names within 63 characters', () => {
    expect(nameWithSuffix('pool', 'abcde')).toBe('pool-abcde');
    const long = nameWithSuffix('p'.repeat(70), 'abcde');
    expect(long.length).toBe(63);
    expect(long.endsWith('-abcde')).toBe(true);
  });
});

describe('durations', () => {
  it('default to a ~40 minute install and divide every phase by speed', () => {
    expect(installTime(defaultDurations)).toBe(40 * 60_000);
    const fast = resolveDurations({ deprovision: 60_000 }, 1000);
    expect(installTime(fast)).toBe(2400);
    expect(fast.deprovision).toBe(60);
    expect(fast.clusterOperatorSettle).toBe(120);
    expect(() => resolveDurations({}, 0)).toThrow(/speed/);
  });
});

const req = (over: Partial<AdmissionRequest>): AdmissionRequest => ({
  operation: 'CREATE',
  group: 'hive.openshift.io',
  version: 'v1',
  resource: 'clusterdeployments',
  kind: 'ClusterDeployment',
  name: 'c',
  namespace: 'ns',
  dryRun: false,
  user: { username: 'u', groups: [] },
  ...over,
});
const cd = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({
  metadata: { name: 'c', ...metadata },
  spec: {
    clusterName: 'c',
    baseDomain: 'example.com',
    platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'creds' } } },
    ...spec,
  },
});

describe('Hive admission webhooks', () => {
  it('refuses over-long names with the webhook prefix and a 400', async () => {
    const r: any = await clusterDeploymentAdmission(
      req({ object: cd({ installed: true, clusterMetadata: {} }, { name: 'x'.repeat(64) }) }),
    );
    expect(r.allowed).toBe(false);
    expect(r.status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message:
        'admission webhook "clusterdeploymentvalidators.admission.hive.openshift.io" denied the request: Invalid cluster deployment name (.meta.name): must be no more than 63 characters',
    });
    const p: any = await clusterPoolAdmission(
      req({
        resource: 'clusterpools',
        kind: 'ClusterPool',
        object: { metadata: { name: 'p'.repeat(64) }, spec: { platform: { aws: {} } } },
      }),
    );
    expect(p.status.message).toContain('Invalid cluster pool name (.meta.name): must be no more than 63 characters');
  });
  it('requires provisioning unless installed, and refuses a CD created already claimed', async () => {
    const r: any = await clusterDeploymentAdmission(
      req({ object: cd({ clusterPoolRef: { namespace: 'p', poolName: 'p', claimName: 'x' } }) }),
    );
    expect(r.status.code).toBe(422);
    expect(r.status.details.causes.map((c: any) => c.field)).toEqual([
      'spec.provisioning',
      'spec.clusterPoolRef.claimName',
    ]);
    expect(r.status.message).toContain(
      '[spec.provisioning: Required value: provisioning is required if not installed, ',
    );
  });
  it('lets only mutable spec fields change, and clusterPoolRef only as Hive allows', async () => {
    const old = cd({
      installed: true,
      clusterMetadata: { infraID: 'i' },
      clusterPoolRef: { namespace: 'p', poolName: 'p' },
    });
    const ok = (spec: Record<string, unknown>) =>
      clusterDeploymentAdmission(
        req({ operation: 'UPDATE', oldObject: old, object: { ...old, spec: { ...old.spec, ...spec } } }),
      );
    expect(
      await ok({
        powerState: 'Hibernating',
        hibernateAfter: '1h',
        clusterPoolRef: { namespace: 'p', poolName: 'p', claimName: 'me' },
      }),
    ).toEqual({ allowed: true });
    const region: any = await ok({
      platform: { aws: { region: 'eu-west-1', credentialsSecretRef: { name: 'creds' } } },
    });
    expect(region.status.message).toContain(
      '{v1.ClusterDeploymentSpec}.Platform.Aws.Region: ("us-east-1" => "eu-west-1")',
    );
    const pool: any = await ok({ clusterPoolRef: { namespace: 'p', poolName: 'other' } });
    expect(pool.status.details.causes[0]).toMatchObject({
      field: 'spec.clusterPoolRef.poolName',
      message: 'Invalid value: "other": field is immutable',
    });
    const removed: any = await ok({ clusterPoolRef: undefined });
    expect(removed.status.details.causes[0].message).toBe('Invalid value: "null": cannot remove clusterPoolRef');
  });
  it('allows deleting a CD whose protected-delete is not truthy', async () => {
    const del = (v: string) =>
      clusterDeploymentAdmission(
        req({ operation: 'DELETE', oldObject: cd({}, { annotations: { 'hive.openshift.io/protected-delete': v } }) }),
      );
    expect(await del('false')).toEqual({ allowed: true });
    expect(await del('yes')).toEqual({ allowed: true });
    expect(((await del('True')) as any).allowed).toBe(false);
  });
  it('enforces MachinePool naming', async () => {
    const mp = (name: string, poolName: string) =>
      machinePoolAdmission(
        req({
          resource: 'machinepools',
          kind: 'MachinePool',
          name,
          object: {
            metadata: { name },
            spec: { clusterDeploymentRef: { name: 'c1' }, name: poolName, platform: { aws: {} } },
          },
        }),
      );
    expect(await mp('c1-worker', 'worker')).toEqual({ allowed: true });
    const bad: any = await mp('c1-master', 'master');
    expect(bad.status.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.name',
        message: 'Invalid value: "master": pool name cannot be "master"',
      },
    ]);
    const wrong: any = await mp('other', 'worker');
    expect(wrong.status.details.causes[0].field).toBe('metadata.name');
  });
});
