// The one planner, without I/O: what an edge and what a run do to a cluster with overrides, and the preview's
// range plan agreeing with each cluster's own plan, bounded and continuable.
import { describe, expect, it } from 'vitest';
import {
  compileSchedule,
  decide,
  enforceDecision,
  planCluster,
  planInput,
  planRange,
  type ClusterFacts,
  type PlannerContext,
  type PowerOverride,
} from '../../src/hive/schedule/index.js';
import type { ClusterDeployment } from '../../src/hive/types.js';

const ms = (iso: string) => Date.parse(iso);
// Europe/Berlin office hours; Wednesday 2026-06-03 18:00 local is 16:00 UTC.
const office: PlannerContext = {
  schedule: compileSchedule({
    timeZone: 'Europe/Berlin',
    windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
  }),
  installGraceMs: 24 * 3_600_000,
};
const WED_18 = ms('2026-06-03T16:00:00Z');
const THU_18 = ms('2026-06-04T16:00:00Z');

function cd(name: string, power: 'Running' | 'Hibernating' = 'Running'): ClusterDeployment {
  return {
    metadata: { name, namespace: 'ns' },
    spec: { clusterName: name, baseDomain: 'example.com', platform: {}, installed: true, powerState: power },
    status: { powerState: power, installedTimestamp: '2026-01-01T00:00:00Z' },
  };
}
const facts = (
  name: string,
  overrides: PowerOverride[] = [],
  power: 'Running' | 'Hibernating' = 'Running',
): ClusterFacts<{ name: string }> => ({
  ref: { name },
  cd: cd(name, power),
  overrides,
});
const skipNext = (fromIso: string): PowerOverride => ({
  name: 'skip',
  type: 'skipNextHibernation',
  fromMs: ms(fromIso),
  by: 'bo',
  reason: 'soak test',
});
const keepAwake = (fromIso: string, untilIso: string): PowerOverride => ({
  name: 'awake',
  type: 'keepAwake',
  fromMs: ms(fromIso),
  untilMs: ms(untilIso),
  by: 'ana',
  reason: 'demo',
});
const edge = (atMs: number) => ({ kind: 'edge' as const, atMs, action: 'hibernate' as const, reason: 'window ends' });
const run = (iso: string) => ({ kind: 'run' as const, atMs: ms(iso) });

describe('the planner at one instant', () => {
  it('an edge skips a cluster whose skip-next-hibernation was made before it, and uses the override up', () => {
    const d = decide(office, facts('a', [skipNext('2026-06-03T10:00:00Z')]), edge(WED_18));
    expect(d).toMatchObject({
      kind: 'skip',
      action: 'hibernate',
      reason: 'SkipNextHibernationOverride',
      consumes: { override: 'skip', edgeAt: '2026-06-03T16:00:00.000Z' },
    });
    expect(decide(office, facts('a', [skipNext('2026-06-03T10:00:00Z')]), edge(THU_18))).toMatchObject({
      kind: 'act',
      action: 'hibernate',
    });
  });

  it('a run at night skips a cluster whose skip-next-hibernation was made after the last edge, and uses nothing up', () => {
    const late = [skipNext('2026-06-03T18:00:00Z')];
    const d = decide(office, facts('a', late), run('2026-06-03T18:30:00Z'));
    expect(d).toMatchObject({
      kind: 'skip',
      action: 'hibernate',
      reason: 'SkipNextHibernationOverride',
      message: expect.stringMatching(/still skips the next scheduled hibernation/),
    });
    expect(d).not.toHaveProperty('consumes');
    // The override is still there for the next edge, as the preview says.
    expect(decide(office, facts('a', late), edge(THU_18))).toMatchObject({
      kind: 'skip',
      reason: 'SkipNextHibernationOverride',
      consumes: { override: 'skip' },
    });
  });

  it('a run at night leaves alone a cluster whose evening hibernation was skipped, naming the edge that used the override', () => {
    const d = decide(office, facts('a', [skipNext('2026-06-03T10:00:00Z')]), run('2026-06-03T20:00:00Z'));
    expect(d).toMatchObject({
      kind: 'skip',
      reason: 'SkipNextHibernationOverride',
      consumes: { override: 'skip', edgeAt: '2026-06-03T16:00:00.000Z' },
    });
  });

  it('a run honours a keep-awake while it holds, and hibernates once it has lapsed', () => {
    const awake = [keepAwake('2026-06-03T18:00:00Z', '2026-06-03T21:00:00Z')];
    expect(decide(office, facts('a', awake), run('2026-06-03T20:00:00Z'))).toMatchObject({
      kind: 'skip',
      reason: 'KeepAwakeOverride',
    });
    expect(decide(office, facts('a', awake), run('2026-06-03T21:30:00Z'))).toMatchObject({
      kind: 'act',
      action: 'hibernate',
    });
  });

  it("a run by day resumes, subject to the cluster's state; an excluded cluster is skipped with its reason", () => {
    expect(decide(office, facts('a'), run('2026-06-03T10:00:00Z'))).toMatchObject({
      kind: 'skip',
      action: 'resume',
      reason: 'AlreadyInState',
    });
    expect(decide(office, facts('a', [], 'Hibernating'), run('2026-06-03T10:00:00Z'))).toMatchObject({
      kind: 'act',
      action: 'resume',
    });
    const pool = { ...facts('p'), excluded: { reason: 'UnclaimedPoolCluster', message: 'the pool owns it' } };
    expect(decide(office, pool, run('2026-06-03T10:00:00Z'))).toEqual({
      kind: 'skip',
      action: 'resume',
      reason: 'UnclaimedPoolCluster',
      message: 'the pool owns it',
    });
  });
});

describe('enforce: true at one instant', () => {
  it('leaves alone a cluster whose skip-next-hibernation was made at night, resumed by hand or not', () => {
    const late = [skipNext('2026-06-03T18:00:00Z')];
    expect(enforceDecision(office, facts('a', late, 'Running'), ms('2026-06-03T19:00:00Z'))).toMatchObject({
      kind: 'skip',
      action: 'hibernate',
      reason: 'SkipNextHibernationOverride',
    });
    expect(enforceDecision(office, facts('a', late, 'Hibernating'), ms('2026-06-03T19:00:00Z'))).toMatchObject({
      kind: 'skip',
      action: 'hibernate',
      reason: 'SkipNextHibernationOverride',
    });
    expect(enforceDecision(office, facts('a', [], 'Running'), ms('2026-06-03T19:00:00Z'))).toMatchObject({
      kind: 'act',
      action: 'hibernate',
    });
  });

  it('wakes a cluster hibernated by hand while the plan keeps it running: a keep-awake, or an evening hibernation skipped for it', () => {
    const awake = [keepAwake('2026-06-03T18:00:00Z', '2026-06-03T21:00:00Z')];
    expect(enforceDecision(office, facts('a', awake, 'Hibernating'), ms('2026-06-03T20:00:00Z'))).toMatchObject({
      kind: 'act',
      action: 'resume',
      reason: expect.stringMatching(/keep-awake override by ana/),
    });
    expect(enforceDecision(office, facts('a', awake, 'Running'), ms('2026-06-03T20:00:00Z'))).toMatchObject({
      kind: 'skip',
      action: 'resume',
      reason: 'AlreadyInState',
    });
    expect(enforceDecision(office, facts('a', awake, 'Running'), ms('2026-06-03T21:30:00Z'))).toMatchObject({
      kind: 'act',
      action: 'hibernate',
    });
    const skipped = [skipNext('2026-06-03T10:00:00Z')];
    expect(enforceDecision(office, facts('a', skipped, 'Hibernating'), ms('2026-06-03T20:00:00Z'))).toMatchObject({
      kind: 'act',
      action: 'resume',
    });
  });
});

describe('the planner over a range', () => {
  const caps = { maxEdges: 1000, maxClusterEntries: 20_000 };

  it("lists each cluster on each edge as its own plan has it: the preview and the cluster's plan agree", () => {
    const clusters = [
      facts('plain'),
      facts('skipper', [skipNext('2026-06-03T10:00:00Z')]),
      facts('awake', [keepAwake('2026-06-03T10:00:00Z', '2026-06-03T20:00:00Z')]),
    ];
    const from = ms('2026-06-03T12:00:00Z');
    const to = ms('2026-06-05T12:00:00Z');
    const plan = planRange(office, clusters, from, to, caps);
    expect(plan.truncated).toBe(false);
    for (const f of clusters) {
      const own = planCluster(planInput(office, f), from - 1, to - 1).edges;
      const seen = plan.edges.flatMap((e) => {
        if (e.clusters?.some((c) => c.name === f.ref.name)) return [`${e.at} ${e.action} acts`];
        const s = e.skippedClusters?.find((c) => c.name === f.ref.name);
        return s ? [`${e.at} ${e.action} ${s.reason}`] : [];
      });
      expect(seen).toEqual(own.map((e) => `${e.at} ${e.action} ${e.skipCode ?? 'acts'}`));
    }
    expect(plan.edges.map((e) => e.at)).toContain('2026-06-03T20:00:00.000Z'); // the keep-awake lapsing
  });

  it('stops at the cap and says where, and the next range starts there with nothing missed or repeated', () => {
    const hourly: PlannerContext = {
      schedule: compileSchedule({ timeZone: 'Europe/Berlin', cron: { hibernate: '0 * * * *', resume: '30 * * * *' } }),
      installGraceMs: 0,
    };
    const clusters = [facts('a'), facts('b', [keepAwake('2026-06-03T00:00:00Z', '2026-06-03T03:02:00Z')])];
    const from = ms('2026-06-03T00:00:00Z');
    const to = ms('2026-06-04T00:00:00Z');
    const whole = planRange(hourly, clusters, from, to, caps);
    expect(whole).toMatchObject({ truncated: false, toMs: to });
    expect(whole.edges).toHaveLength(24 * 2 + 1); // every half hour, and the keep-awake lapsing at 03:02 UTC

    const first = planRange(hourly, clusters, from, to, { maxEdges: 20, maxClusterEntries: 20_000 });
    expect(first.truncated).toBe(true);
    expect(first.edges).toHaveLength(20);
    expect(first.toMs).toBe(ms(whole.edges[20]!.at));
    const rest = planRange(hourly, clusters, first.toMs, to, caps);
    expect([...first.edges, ...rest.edges]).toEqual(whole.edges);

    // Two clusters on each schedule edge, one on the lapse: 25 x 2 + 1 entries fit in 51.
    const byEntries = planRange(hourly, clusters, from, to, { maxEdges: 1000, maxClusterEntries: 51 });
    expect(byEntries.edges).toHaveLength(26);
    expect(byEntries.toMs).toBe(ms(whole.edges[26]!.at));

    // Counts only: no lists, so only the edge cap applies; the counts are what the lists would have held.
    const counted = planRange(hourly, clusters, from, to, { maxEdges: 1000, maxClusterEntries: 51, countsOnly: true });
    expect(counted).toMatchObject({ truncated: false, toMs: to });
    expect(counted.edges.map((e) => [e.at, e.counts])).toEqual(
      whole.edges.map((e) => [e.at, { acted: e.clusters!.length, skipped: e.skippedClusters!.length }]),
    );
    expect(counted.edges.every((e) => e.clusters === undefined && e.skippedClusters === undefined)).toBe(true);
  });
});
