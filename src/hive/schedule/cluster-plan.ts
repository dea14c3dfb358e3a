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
  heldBy?: Hold;
}

export interface Hold {
  code: SkipCode;
  message: string;
  /** The override that holds it, if one does. */
  override?: string;
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
  const graceEnd = graceEndMs(input);

  // Replay from a point before every override and before the range, starting from the schedule's state.
  let startMs = Math.min(fromMs - 8 * DAY, ...overrides.map((o) => o.fromMs));
  if (input.installedAtMs !== undefined && graceEnd !== undefined && graceEnd > startMs)
    startMs = Math.min(startMs, input.installedAtMs);

  const events: Event[] = schedule
    .rawEdges(startMs, toMs)
    .map((e) => ({ atMs: e.atMs, action: e.action, reason: e.reason, skipped: e.skipped }));
  const lapses: Array<{ atMs: number; what: string }> = overrides
    .filter((o) => o.type === 'keepAwake' && o.untilMs !== undefined)
    .map((o) => ({ atMs: o.untilMs as number, what: describeOverride(o) }));
  if (graceEnd !== undefined && graceMs > 0) lapses.push({ atMs: graceEnd, what: 'the 24h install grace period' });
  for (const lapse of lapses) {
    if (lapse.atMs <= startMs || lapse.atMs > toMs) continue;
    if (schedule.desiredState(lapse.atMs).state !== 'Hibernating') continue;
    events.push({
      atMs: lapse.atMs,
      action: 'hibernate',
      reason: `${lapse.what} lapsed; the schedule says Hibernating`,
    });
  }
  events.sort((a, b) => a.atMs - b.atMs);

  let state: DesiredState = schedule.desiredState(startMs).state;
  let reason = 'the schedule';
  const consumed = new Map<string, Edge>();
  const edges: Edge[] = [];
  let held: Hold | undefined;
  const emit = (e: Event, hold?: Hold) => {
    if (e.action === 'hibernate' && hold && hold.code !== 'ExceptionDate') held = hold;
    if (e.atMs <= fromMs) return;
    edges.push({
      at: new Date(e.atMs).toISOString(),
      local: localIso(e.atMs, zone),
      action: e.action,
      reason: e.reason,
      ...(hold ? { skipped: hold.message, skipCode: hold.code } : {}),
    });
  };

  for (const e of events) {
    if (e.skipped) {
      emit(e, { code: 'ExceptionDate', message: e.skipped });
      continue;
    }
    if (e.action === 'hibernate') {
      const hold = hibernationStopper(input, e.atMs, consumed);
      if (hold) {
        if (hold.code === 'SkipNextHibernationOverride' && hold.override) {
          consumed.set(hold.override, {
            at: new Date(e.atMs).toISOString(),
            local: localIso(e.atMs, zone),
            action: e.action,
            reason: e.reason,
          });
        }
        emit(e, hold);
        continue;
      }
    }
    state = actionState(e.action);
    reason = e.reason;
    held = undefined;
    emit(e);
  }

  const awakeNow = overrides.find((o) => keepAwakeActive(o, toMs));
  if (awakeNow)
    return {
      edges,
      state: 'Running',
      reason: describeOverride(awakeNow),
      consumed,
      heldBy: { code: 'KeepAwakeOverride', message: describeOverride(awakeNow), override: awakeNow.name },
    };
  if (inGrace(input, toMs)) {
    const message = 'installed less than 24h ago (install grace period)';
    return { edges, state: 'Running', reason: message, consumed, heldBy: { code: 'InstallGracePeriod', message } };
  }
  return {
    edges,
    state,
    reason: held && state === 'Running' ? held.message : reason,
    consumed,
    ...(held && state === 'Running' ? { heldBy: held } : {}),
  };
}

function graceEndMs(input: ClusterPlanInput): number | undefined {
  return input.installedAtMs === undefined
    ? undefined
    : input.installedAtMs + (input.installGraceMs ?? INSTALL_GRACE_MS);
}

function inGrace(input: ClusterPlanInput, atMs: number): boolean {
  const end = graceEndMs(input);
  return input.installedAtMs !== undefined && end !== undefined && input.installedAtMs <= atMs && atMs < end;
}

/**
 * What stops a hibernation of this cluster at `atMs`, if anything: a keep-awake, the install grace period, or a
 * skip-next-hibernation override not yet used (`consumed` holds those that skipped an earlier one). Scheduled
 * edges and manual runs both ask this, so an override means the same to both.
 */
export function hibernationStopper(
  input: ClusterPlanInput,
  atMs: number,
  consumed: ReadonlyMap<string, unknown>,
): Hold | undefined {
  const awake = input.overrides.find((o) => keepAwakeActive(o, atMs));
  if (awake) return { code: 'KeepAwakeOverride', message: describeOverride(awake), override: awake.name };
  if (inGrace(input, atMs)) {
    return {
      code: 'InstallGracePeriod',
      message: `installed less than 24h ago (${new Date(input.installedAtMs ?? 0).toISOString()}); hibernating now can break certificate rotation`,
    };
  }
  const skipNext = input.overrides.find(
    (o) =>
      o.type === 'skipNextHibernation' &&
      !consumed.has(o.name) &&
      o.fromMs <= atMs &&
      (o.untilMs === undefined || atMs < o.untilMs),
  );
  if (skipNext)
    return { code: 'SkipNextHibernationOverride', message: describeOverride(skipNext), override: skipNext.name };
  return undefined;
}

/** Phase of an override at `nowMs`, given the plan that replayed it. */
export function overridePhase(o: PowerOverride, plan: ClusterPlan, nowMs: number): OverridePhase {
  if (o.type === 'skipNextHibernation' && plan.consumed.has(o.name)) return 'Consumed';
  if (o.untilMs !== undefined && nowMs >= o.untilMs) return 'Expired';
  return 'Active';
}
