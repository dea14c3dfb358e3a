// What a sweep does to each cluster, decided from the informer cache: act (one child job), skip with a reason,
// or leave alone (not this schedule's cluster). Pure over its inputs so dry runs and real runs agree.
import { powerEligibility, type CdLike, type PowerAction } from '../../hive/schedule/index.js';
import { governance, planFor } from './cluster-schedule.js';
import type { KubeObject } from '../ports.js';
import type { ScheduleServiceDeps } from './deps.js';
import { compile, type HibernationSchedule } from './schedule-resource.js';

export interface ClusterRef {
  hub: string;
  namespace: string;
  name: string;
}

export type SweepMode = 'edge' | 'catch-up' | 'manual';

export type Decision =
  | { kind: 'act'; cluster: ClusterRef; action: PowerAction; reason: string }
  | { kind: 'skip'; cluster: ClusterRef; action: PowerAction; reason: string; message: string };

export function planSweep(
  deps: Pick<ScheduleServiceDeps, 'store' | 'stateHub' | 'stateNamespace'>,
  schedule: HibernationSchedule,
  all: HibernationSchedule[],
  edge: { atMs: number; action: PowerAction; reason: string },
  mode: SweepMode,
  nowMs: number,
): Decision[] {
  const name = schedule.metadata.name;
  const hubs = schedule.spec.targets?.hubs;
  const decisions: Decision[] = [];
  for (const { hub, object: cd } of deps.store.cachedList<CdLike & KubeObject>('ClusterDeployment')) {
    if (hubs?.length && !hubs.includes(hub)) continue;
    const cluster = { hub, namespace: cd.metadata.namespace ?? '', name: cd.metadata.name };
    const gov = governance(all, hub, cd);
    if (gov.excluded === 'UnclaimedPoolCluster') {
      if (gov.candidates.includes(name)) decisions.push({ kind: 'skip', cluster, action: edge.action, reason: 'UnclaimedPoolCluster', message: gov.why });
      continue;
    }
    if (gov.excluded === 'ScheduleConflict') {
      if (gov.candidates.includes(name)) decisions.push({ kind: 'skip', cluster, action: edge.action, reason: 'ScheduleConflict', message: gov.why });
      continue;
    }
    if (gov.schedule?.metadata.name !== name) continue;

    let action = edge.action;
    let reason = edge.reason;
    if (mode === 'edge') {
      // The cluster's own plan around this edge: overrides and the install grace period may skip it.
      const mine = planFor(deps, schedule, hub, cd, edge.atMs - 1, edge.atMs).edges.find((e) => Date.parse(e.at) === edge.atMs && e.action === edge.action);
      if (mine?.skipped) {
        decisions.push({ kind: 'skip', cluster, action, reason: mine.skipCode ?? 'Skipped', message: mine.skipped });
        continue;
      }
    } else {
      // Catch-up and manual runs apply the state the schedule says now, never a stale edge.
      const plan = planFor(deps, schedule, hub, cd, nowMs - 1, nowMs);
      if (plan.heldBy && plan.state !== compile(schedule).desiredState(nowMs).state) {
        // Kept awake against the schedule (override, install grace): neither hibernate nor resume it.
        decisions.push({ kind: 'skip', cluster, action: edge.action, reason: plan.heldBy.code, message: plan.heldBy.message });
        continue;
      }
      action = plan.state === 'Hibernating' ? 'hibernate' : 'resume';
      reason = `${mode}: the schedule says ${plan.state} now (${plan.reason})`;
    }
    const ok = powerEligibility(cd, action);
    if (!ok.ok) decisions.push({ kind: 'skip', cluster, action, reason: ok.reason, message: ok.message });
    else decisions.push({ kind: 'act', cluster, action, reason });
  }
  return decisions;
}
