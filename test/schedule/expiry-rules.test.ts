import { describe, expect, it } from 'vitest';
import {
  effectiveLimits,
  extendedExpiry,
  planWarnings,
  policyExpiry,
  requestedExpiry,
  type NamedPolicy,
} from '../../src/hive/expiry/index.js';
import type { ClusterClaim } from '../../src/hive/pools/types.js';
import type { ClusterDeployment } from '../../src/hive/types.js';

const H = 3_600_000;
const created = Date.parse('2026-06-01T00:00:00Z');
const cd = (labels: Record<string, string>, namespace = 'team-a'): Pick<ClusterDeployment, 'metadata'> => ({
  metadata: { name: 'c', namespace, labels },
});
const policies: NamedPolicy[] = [
  {
    name: 'team-payments',
    spec: { selector: { teams: ['payments'] }, maxLifetime: '72h', defaultLifetime: '8h', warnings: ['24h', '1h'] },
  },
  { name: 'ci', spec: { selector: { namespaces: ['ci'] }, maxLifetime: '12h', warnings: ['30m'] } },
];

describe('expiry policy', () => {
  it('applies the strictest cap and every lead time of the policies covering a cluster', () => {
    const limits = effectiveLimits(policies, 'local', cd({ 'beekeeper.io/team': 'payments' }, 'ci'), undefined);
    expect(limits).toMatchObject({
      maxLifetimeMs: 12 * H,
      maxFrom: 'ci',
      defaultLifetimeMs: 8 * H,
      warningLeadsMs: [24 * H, H, 0.5 * H],
    });
    expect(effectiveLimits(policies, 'local', cd({}), undefined).policies).toEqual([]);
  });

  it('refuses an expiry or extension beyond the cap, saying the latest allowed time', () => {
    const limits = effectiveLimits(policies, 'local', cd({ 'beekeeper.io/team': 'payments' }), undefined);
    const now = created + H;
    expect(requestedExpiry({ in: '8h' }, now, created, limits)).toBe(created + 9 * H);
    expect(() => requestedExpiry({ in: '80h' }, now, created, limits)).toThrow(
      /latest allowed 2026-06-04T00:00:00.000Z/,
    );
    expect(() => requestedExpiry({ in: '2d' }, now, created, limits)).toThrow(/no d/);
    expect(extendedExpiry({ extendBy: '4h' }, created + 9 * H, now, created, limits)).toBe(created + 13 * H);
    expect(() => extendedExpiry({ until: '2026-06-05T00:00:00Z' }, created + 9 * H, now, created, limits)).toThrow(
      /until: .*maxLifetime 72h/,
    );
  });

  it('defaults and caps never give less notice than the largest warning lead', () => {
    const limits = effectiveLimits(policies, 'local', cd({ 'beekeeper.io/team': 'payments' }), undefined);
    expect(policyExpiry(undefined, created, created + 30 * H, limits)).toEqual({
      atMs: created + 54 * H,
      why: 'default',
    });
    expect(policyExpiry(created + 100 * H, created, created + H, limits)).toEqual({
      atMs: created + 72 * H,
      why: 'cap',
    });
    expect(policyExpiry(created + 10 * H, created, created + H, limits)).toBeUndefined();
  });
});

describe('warning plan', () => {
  const expires = created + 48 * H;
  const leads = [24 * H, H];
  it('sends each lead once, in order', () => {
    expect(planWarnings(expires, leads, created, () => false, created)).toEqual({
      superseded: [],
      moot: [],
      nextAtMs: created + 24 * H,
    });
    expect(planWarnings(expires, leads, created + 25 * H, () => false, created).due?.lead).toBe('24h');
    expect(planWarnings(expires, leads, created + 25 * H, (l) => l === '24h', created)).toEqual({
      superseded: [],
      moot: [],
      nextAtMs: expires - H,
    });
  });
  it('when several are due at once (the scheduler was down) only the most urgent goes out', () => {
    const plan = planWarnings(expires, leads, expires - 30 * 60_000, () => false, created);
    expect(plan.due?.lead).toBe('1h');
    expect(plan.superseded.map((w) => w.lead)).toEqual(['24h']);
  });
  it('a lead longer than the life left when the expiry was set is moot, not due at once', () => {
    const setAt = expires - 2 * H;
    expect(planWarnings(expires, leads, setAt, () => false, setAt)).toEqual({
      superseded: [],
      moot: ['24h'],
      nextAtMs: expires - H,
    });
    expect(planWarnings(expires, leads, expires - H, () => false, setAt)).toMatchObject({
      due: { lead: '1h' },
      superseded: [],
      moot: ['24h'],
    });
    // Exactly the lead left: reached the moment it is set (a policy imposing an expiry with the largest lead's notice).
    expect(planWarnings(expires, leads, expires - 24 * H, () => false, expires - 24 * H).due?.lead).toBe('24h');
  });
});

describe('claim expiry', () => {
  it("counts a claim's lifetime from when it was claimed (Pending=False), as Hive does, and ignores unassigned claims", async () => {
    const { claimExpiry } = await import('../../src/services/expiry/targets.js');
    const claimed: ClusterClaim = {
      metadata: { name: 'ci-run', namespace: 'pools' },
      spec: { clusterPoolName: 'ci', namespace: 'ci-abcde' },
      status: {
        lifetime: '2h',
        conditions: [
          { type: 'Pending', status: 'False', reason: 'ClusterClaimed', lastTransitionTime: '2026-06-01T10:00:00Z' },
        ],
      },
    };
    expect(claimExpiry('east', claimed)).toMatchObject({
      kind: 'ClusterClaim',
      expiresAtMs: Date.parse('2026-06-01T12:00:00Z'),
      cluster: { hub: 'east', namespace: 'ci-abcde', name: 'ci-abcde' },
    });
    const waiting: ClusterClaim = {
      ...claimed,
      status: { lifetime: '2h', conditions: [{ type: 'Pending', status: 'True', reason: 'NoClusters' }] },
    };
    expect(claimExpiry('east', waiting)).toBeUndefined();
  });
});
