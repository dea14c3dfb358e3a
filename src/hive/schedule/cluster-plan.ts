// One cluster's view of its schedule: the schedule's edges with the cluster's overrides and safety rules
// applied. Keep-awake overrides and the install grace period suppress hibernation while they hold, and when
// they lapse the cluster goes to the state the schedule says at that moment (a lapse is itself an edge), so
// a "keep awake until 22:00" does not leave the cluster running all night.
import { describeOverride, keepAwakeActive, type OverridePhase, type PowerOverride } from './overrides.js';
import type { Schedule } from './schedule.js';
import { actionState, type DesiredState, type Edge, type PowerAction, type SkipCode } from './types.js';
import { localIso } from './local-time.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** OpenShift rotates its first certificates during the first day; a cluster stopped then may not come back. */
export const INSTALL_GRACE_MS = 24 * HOUR;

export interface ClusterPlanInput {
  schedule: Schedule;
  overrides: PowerOverride[];
  /** `status.installedTimestamp` of the ClusterDeployment. */
  installedAtMs?: number;
  /** Defaults to INSTALL_GRACE_MS; 0 when the schedule overrides the safety rule (with a recorded reason). */
  installGraceMs?: number;
}

export interface ClusterPlan {
  edges: Edge[];
  /** Desired state at the end of the range. */
  state: DesiredState;
  reason: string;
  /** Override name -> the edge it consumed (skipNextHibernation). */
  consumed: Map<string, Edge>;
  /** Set when the cluster is kept Running against the schedule: by what, and in words. */
  heldBy?: { code: SkipCode; message: string };
}

interface Event {
  atMs: number;
  action: PowerAction;
  reason: string;
  skipped?: string;
}

export function planCluster(input: ClusterPlanInput, fromMs: number, toMs: number): ClusterPlan {
  const { schedule, overrides } = input;
  const zone = schedule.spec.timeZone;
  const graceMs = input.installGraceMs ?? INSTALL_GRACE_MS;
  const graceEnd = input.installedAtMs === undefined ? undefined : input.installedAtMs + graceMs;
  const inGrace = (t: number) => input.installedAtMs !== undefined && graceEnd !== undefined && input.installedAtMs <= t && t < graceEnd;

  // Replay from a point before every override and before the range, starting from the schedule's state.
  let startMs = Math.min(fromMs - 8 * DAY, ...overrides.map((o) => o.fromMs));
  if (input.installedAtMs !== undefined && graceEnd !== undefined && graceEnd > startMs) startMs = Math.min(startMs, input.installedAtMs);

  const events: Event[] = schedule.rawEdges(startMs, toMs).map((e) => ({ atMs: e.atMs, action: e.action, reason: e.reason, skipped: e.skipped }));
  const lapses: Array<{ atMs: number; what: string }> = overrides
    .filter((o) => o.type === 'keepAwake' && o.untilMs !== undefined)
    .map((o) => ({ atMs: o.untilMs as number, what: describeOverride(o) }));
  if (graceEnd !== undefined && graceMs > 0) lapses.push({ atMs: graceEnd, what: 'the 24h install grace period' });
  for (const lapse of lapses) {
    if (lapse.atMs <= startMs || lapse.atMs > toMs) continue;
    if (schedule.desiredState(lapse.atMs).state !== 'Hibernating') continue;
    events.push({ atMs: lapse.atMs, action: 'hibernate', reason: `${lapse.what} lapsed; the schedule says Hibernating` });
  }
  events.sort((a, b) => a.atMs - b.atMs);

  let state: DesiredState = schedule.desiredState(startMs).state;
  let reason = 'the schedule';
  const consumed = new Map<string, Edge>();
  const edges: Edge[] = [];
  let held: ClusterPlan['heldBy'];
  const emit = (e: Event, skipped?: string, skipCode?: SkipCode) => {
    if (e.action === 'hibernate' && skipped && skipCode && skipCode !== 'ExceptionDate') held = { code: skipCode, message: skipped };
    if (e.atMs <= fromMs) return;
    edges.push({ at: new Date(e.atMs).toISOString(), local: localIso(e.atMs, zone), action: e.action, reason: e.reason, ...(skipped ? { skipped, skipCode } : {}) });
  };

  for (const e of events) {
    if (e.skipped) {
      emit(e, e.skipped, 'ExceptionDate');
      continue;
    }
    if (e.action === 'hibernate') {
      const awake = overrides.find((o) => keepAwakeActive(o, e.atMs));
      if (awake) {
        emit(e, describeOverride(awake), 'KeepAwakeOverride');
        continue;
      }
      if (inGrace(e.atMs)) {
        emit(e, `installed less than 24h ago (${new Date(input.installedAtMs ?? 0).toISOString()}); hibernating now can break certificate rotation`, 'InstallGracePeriod');
        continue;
      }
      const skipNext = overrides.find(
        (o) => o.type === 'skipNextHibernation' && !consumed.has(o.name) && o.fromMs <= e.atMs && (o.untilMs === undefined || e.atMs < o.untilMs),
      );
      if (skipNext) {
        consumed.set(skipNext.name, { at: new Date(e.atMs).toISOString(), local: localIso(e.atMs, zone), action: e.action, reason: e.reason });
        emit(e, describeOverride(skipNext), 'SkipNextHibernationOverride');
        continue;
      }
    }
    state = actionState(e.action);
    reason = e.reason;
    held = undefined;
    emit(e);
  }

  const awakeNow = overrides.find((o) => keepAwakeActive(o, toMs));
  if (awakeNow) return { edges, state: 'Running', reason: describeOverride(awakeNow), consumed, heldBy: { code: 'KeepAwakeOverride', message: describeOverride(awakeNow) } };
  if (inGrace(toMs)) {
    const message = 'installed less than 24h ago (install grace period)';
    return { edges, state: 'Running', reason: message, consumed, heldBy: { code: 'InstallGracePeriod', message } };
  }
  return { edges, state, reason: held && state === 'Running' ? held.message : reason, consumed, ...(held && state === 'Running' ? { heldBy: held } : {}) };
}

/** Phase of an override at `nowMs`, given the plan that replayed it. */
export function overridePhase(o: PowerOverride, plan: ClusterPlan, nowMs: number): OverridePhase {
  if (o.type === 'skipNextHibernation' && plan.consumed.has(o.name)) return 'Consumed';
  if (o.untilMs !== undefined && nowMs >= o.untilMs) return 'Expired';
  return 'Active';
}
