// The one planner: what a schedule does to each cluster at an instant. The instant is a scheduled edge (the edge
// sweep) or a run that applies the state the schedule says now (POST /run, its dry run, a catch-up sweep). The
// preview asks the same rules over a range (range-plan.ts), and `enforce: true` asks it whenever a cluster changes.
// Nothing else decides, so they cannot disagree.
//
// A run is not an edge of the schedule: it honours a skip-next-hibernation override but does not consume it. The
// override keeps its meaning, "skip the next scheduled hibernation", so what the preview showed for that edge
// still holds after any number of runs, and a run repeated ends where the first one did.
import { installedAtMs } from './cd-facts.js';
import { hibernationStopper, planCluster, type ClusterPlanInput } from './cluster-plan.js';
import { powerEligibility } from './eligibility.js';
import type { PowerOverride } from './overrides.js';
import type { Schedule } from './schedule.js';
import type { PowerAction } from './types.js';
import type { ClusterDeployment } from '../types.js';

export interface ClusterFacts<R> {
  ref: R;
  cd: ClusterDeployment;
  overrides: PowerOverride[];
  /** Set when the schedule must leave the cluster alone (Hive's pool controller owns it; two schedules target it). */
  excluded?: { reason: string; message: string };
}

export interface PlannerContext {
  schedule: Schedule;
  /** INSTALL_GRACE_MS, or 0 when the schedule lifts the safety rule. */
  installGraceMs: number;
}

export type PlanInstant =
  /** A scheduled edge, acted on at (or shortly after) its instant. */
  | { kind: 'edge'; atMs: number; action: PowerAction; reason: string }
  /** Apply the state the schedule says at `atMs`. */
  | { kind: 'run'; atMs: number };

/** A skip-next-hibernation override used up by this decision, and the edge that used it. */
export interface Consumption {
  override: string;
  edgeAt: string;
}

export type PowerDecision =
  | { kind: 'act'; action: PowerAction; reason: string }
  | { kind: 'skip'; action: PowerAction; reason: string; message: string; consumes?: Consumption };

export type PlannedCluster<R> = { ref: R } & PowerDecision;

export function planInput(
  ctx: PlannerContext,
  facts: Pick<ClusterFacts<unknown>, 'cd' | 'overrides'>,
): ClusterPlanInput {
  return {
    schedule: ctx.schedule,
    overrides: facts.overrides,
    installedAtMs: installedAtMs(facts.cd),
    installGraceMs: ctx.installGraceMs,
  };
}

/**
 * The schedule's own decision for one cluster, before its state now is looked at: overrides, the install grace
 * period and exception dates.
 */
export function scheduleDecision(
  ctx: PlannerContext,
  facts: Pick<ClusterFacts<unknown>, 'cd' | 'overrides'>,
  at: PlanInstant,
): PowerDecision {
  const input = planInput(ctx, facts);
  const plan = planCluster(input, at.atMs - 1, at.atMs);
  const consumption = (override: string | undefined): Consumption | undefined => {
    const edge = override === undefined ? undefined : plan.consumed.get(override);
    return override !== undefined && edge ? { override, edgeAt: edge.at } : undefined;
  };
  if (at.kind === 'edge') {
    const mine = plan.edges.find((e) => Date.parse(e.at) === at.atMs && e.action === at.action);
    if (mine?.skipped) {
      const consumes =
        mine.skipCode === 'SkipNextHibernationOverride'
          ? [...plan.consumed].find(([, e]) => e.at === mine.at)?.[0]
          : undefined;
      return {
        kind: 'skip',
        action: at.action,
        reason: mine.skipCode ?? 'Skipped',
        message: mine.skipped,
        ...(consumes ? { consumes: { override: consumes, edgeAt: mine.at } } : {}),
      };
    }
    return { kind: 'act', action: at.action, reason: at.reason };
  }
  const desired = ctx.schedule.desiredState(at.atMs).state;
  const action: PowerAction = desired === 'Hibernating' ? 'hibernate' : 'resume';
  if (action === 'hibernate') {
    // Kept up against the schedule (a keep-awake, the grace period, or an earlier hibernation skipped for it).
    if (plan.heldBy && plan.state === 'Running') {
      const consumes = consumption(plan.heldBy.override);
      return {
        kind: 'skip',
        action,
        reason: plan.heldBy.code,
        message: plan.heldBy.message,
        ...(consumes ? { consumes } : {}),
      };
    }
    const stop = hibernationStopper(input, at.atMs, plan.consumed);
    if (stop) {
      const note =
        stop.code === 'SkipNextHibernationOverride'
          ? '; a run does not use it up: it still skips the next scheduled hibernation'
          : '';
      return { kind: 'skip', action, reason: stop.code, message: `${stop.message}${note}` };
    }
  }
  return { kind: 'act', action, reason: `the schedule says ${plan.state} now (${plan.reason})` };
}

/** The decision for one cluster at `at`: the schedule's, then whether the cluster's state lets it be carried out. */
export function decide(ctx: PlannerContext, facts: ClusterFacts<unknown>, at: PlanInstant): PowerDecision {
  if (facts.excluded) {
    const action =
      at.kind === 'edge'
        ? at.action
        : ctx.schedule.desiredState(at.atMs).state === 'Hibernating'
          ? 'hibernate'
          : 'resume';
    return { kind: 'skip', action, reason: facts.excluded.reason, message: facts.excluded.message };
  }
  const decision = scheduleDecision(ctx, facts, at);
  if (decision.kind === 'skip') return decision;
  const ok = powerEligibility(facts.cd, decision.action);
  return ok.ok ? decision : { kind: 'skip', action: decision.action, reason: ok.reason, message: ok.message };
}

/** Every cluster's decision at `at`, in the order given. */
export function planAt<R>(
  ctx: PlannerContext,
  clusters: Array<ClusterFacts<R>>,
  at: PlanInstant,
): Array<PlannedCluster<R>> {
  return clusters.map((facts) => ({ ref: facts.ref, ...decide(ctx, facts, at) }));
}

/**
 * What `enforce: true` holds a cluster to at `atMs`: where a run would act, that. Where the plan keeps the cluster
 * running against the schedule (a keep-awake, the install grace period, an evening hibernation skipped for it),
 * running, so a hibernation by hand is undone like any other change. A skip-next-hibernation made after the last
 * hibernation only spares the cluster the next one: enforcement neither hibernates nor wakes it.
 */
export function enforceDecision(ctx: PlannerContext, facts: ClusterFacts<unknown>, atMs: number): PowerDecision {
  const run = decide(ctx, facts, { kind: 'run', atMs });
  if (run.kind === 'act' || run.action !== 'hibernate' || facts.excluded) return run;
  const plan = planCluster(planInput(ctx, facts), atMs - 1, atMs);
  if (!plan.heldBy || plan.state !== 'Running') return run;
  const ok = powerEligibility(facts.cd, 'resume');
  return ok.ok
    ? { kind: 'act', action: 'resume', reason: `kept running: ${plan.heldBy.message}` }
    : { kind: 'skip', action: 'resume', reason: ok.reason, message: ok.message };
}
