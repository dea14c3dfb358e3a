// Which clusters a schedule targets. The selector picks clusters in bulk; per-cluster labels let a team opt one
// cluster in (even outside the selector) or out.
import { selectorMatches } from '../label-selector.js';
import type { ClusterDeployment } from '../types.js';
import type { Static } from 'typebox';
import type { ScheduleTargetsSchema } from '../resources/hibernation-schedule.js';

/** Value: a schedule's name. Opts the cluster in to that schedule (and out of every other). */
export const OPT_IN_LABEL = 'beekeeper.io/hibernation-schedule';
/** Value: `true` (every schedule) or a schedule's name. */
export const OPT_OUT_LABEL = 'beekeeper.io/hibernation-opt-out';

/** `requireOptIn`: only clusters labelled `beekeeper.io/hibernation-schedule=<this schedule>` are targeted. */
export type ScheduleTargets = Static<typeof ScheduleTargetsSchema>;

export interface TargetMatch {
  matched: boolean;
  why: string;
}

export function targetMatch(
  scheduleName: string,
  targets: ScheduleTargets,
  hub: string,
  cd: ClusterDeployment,
): TargetMatch {
  const labels = cd.metadata.labels ?? {};
  const optOut = labels[OPT_OUT_LABEL];
  if (optOut === 'true' || optOut === scheduleName)
    return { matched: false, why: `opted out by label ${OPT_OUT_LABEL}=${optOut}` };
  const optIn = labels[OPT_IN_LABEL];
  if (optIn === scheduleName) return { matched: true, why: `opted in by label ${OPT_IN_LABEL}=${optIn}` };
  if (optIn) return { matched: false, why: `opted in to schedule ${optIn} instead` };
  if (targets.requireOptIn)
    return { matched: false, why: `the schedule requires the label ${OPT_IN_LABEL}=${scheduleName}` };
  if (targets.hubs?.length && !targets.hubs.includes(hub))
    return { matched: false, why: `hub ${hub} is not in the schedule's hubs` };
  const ns = cd.metadata.namespace ?? '';
  if (targets.namespaces?.length && !targets.namespaces.includes(ns))
    return { matched: false, why: `namespace ${ns} is not in the schedule's namespaces` };
  if (!selectorMatches(targets.labelSelector, labels))
    return { matched: false, why: 'labels do not match the schedule selector' };
  return { matched: true, why: 'matched by the schedule targets' };
}
