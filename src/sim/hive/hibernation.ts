import { R, type ReconcileResult } from '../client/index.js';
import { type HiveContext, type Obj, A, L, ann, clone, isDeleting, lbl, splitKey } from './context.js';
import { findCondition, initConditions, setCdConditions, sortCdConditions } from './conditions.js';
import { unsupportedPowerReason } from './cd-platform.js';
import { fromTime, isTruthy } from './go-values.js';
import { type Stopwatch, soonest } from './controller.js';
import { writeStatus } from './writes.js';
import { hibernateAfter } from './hibernate-after.js';

type Change = [type: string, status: 'True' | 'False' | 'Unknown', reason: string, message: string];
type Step = { powerState: string; changes: Change[] };

// Hive's own wording (pkg/controller/hibernation/hibernation_controller.go).
const RUNNING_MSG = 'Cluster is running';
const RESUMING_MSG = 'Cluster is resuming or running, see Ready condition for details';
const HIBERNATING_MSG = 'Cluster is shutting down or hibernating, see Hibernating condition for details';
const RESUMING: Change = ['Hibernating', 'False', 'ResumingOrRunning', RESUMING_MSG];

/**
 * pkg/controller/hibernation: drives status.powerState and the Hibernating/Ready conditions through Hive's exact
 * sequences (REFERENCE §2.5), in Hive's order of checks. Each step is one status write, so a watcher sees every
 * state in order.
 */
export async function reconcileHibernation(
  ctx: HiveContext,
  watch: Stopwatch,
  key: string,
): Promise<ReconcileResult | void> {
  const [ns, name] = splitKey(key);
  const cd = ctx.informers.clusterDeployments.get(ns, name);
  if (!cd || isTruthy(ann(cd, A.reconcilePause))) return;
  const now = ctx.clock.now();
  const status = clone(cd.status ?? {});

  if (isDeleting(cd)) {
    const msg = 'ClusterDeployment has been marked for deletion';
    await apply(ctx, cd, status, {
      powerState: 'Unknown',
      changes: [
        ['Hibernating', 'Unknown', 'ClusterDeploymentDeleted', msg],
        ['Ready', 'Unknown', 'ClusterDeploymentDeleted', msg],
      ],
    });
    return;
  }

  status.conditions = sortCdConditions(initConditions(status.conditions, ['Hibernating', 'Ready'], now));
  if (await writeStatus(ctx, R.clusterDeployment, cd, status)) return;
  if (!cd.spec?.installed) return;

  if (isTruthy(ann(cd, A.powerStatePause))) {
    const msg = 'the powerstate-pause annotation is set';
    await apply(ctx, cd, status, {
      powerState: 'Unknown',
      changes: [
        ['Hibernating', 'Unknown', 'PowerStatePaused', msg],
        ['Ready', 'Unknown', 'PowerStatePaused', msg],
      ],
    });
    return;
  }

  const unsupported = unsupportedPowerReason(cd);
  const hib = findCondition(status.conditions, 'Hibernating');
  if (unsupported) {
    const wrote = await apply(ctx, cd, status, {
      powerState: 'Running',
      changes: [
        ['Hibernating', 'False', 'Unsupported', unsupported],
        ['Ready', 'True', 'Running', 'No power state actuator -- assuming running'],
      ],
    });
    if (wrote) return;
  } else if (hib?.reason === 'Unsupported') {
    // The platform became hibernation capable (e.g. infra-disabled removed): clear the lingering reason.
    await apply(ctx, cd, status, {
      powerState: status.powerState,
      changes: [['Hibernating', 'False', 'ResumingOrRunning', 'Hibernation capable']],
    });
    return;
  }

  // Until the ClusterSync exists Hive only requeues ("could not get ClusterSync"); its event brings us back.
  const sync = ctx.informers.clusterSyncs.get(ns, name);
  if (ctx.informers.clusterSyncs.served() && !sync) return;
  const syncSetsApplied = !ctx.informers.clusterSyncs.served() || Boolean(sync?.status?.firstSuccessTime);
  if (hib?.reason === 'SyncSetsNotApplied' && syncSetsApplied) {
    await apply(ctx, cd, status, {
      powerState: status.powerState,
      changes: [['Hibernating', 'False', 'SyncSetsApplied', 'SyncSets have been applied']],
    });
    return;
  }

  const after = hibernateAfter(ctx, cd);
  const shouldHibernate = cd.spec.powerState === 'Hibernating';
  if (shouldHibernate || after === 'hibernate') {
    // Hibernation waits while SyncSets were never applied and the install is recent.
    const installedAt = fromTime(status.installedTimestamp);
    const graceLeft = installedAt === undefined ? 0 : installedAt + ctx.durations.syncSetsGrace - now;
    if (!syncSetsApplied && graceLeft > 0) {
      await apply(ctx, cd, status, {
        powerState: 'SyncSetsNotApplied',
        changes: [['Hibernating', 'False', 'SyncSetsNotApplied', 'Cluster SyncSets have not been applied']],
      });
      return { requeueAfter: graceLeft };
    }
    if (isTruthy(ann(cd, A.fakeCluster)) && !cd.spec.hibernateAfter && hib?.status !== 'True') {
      await apply(ctx, cd, status, {
        powerState: 'Hibernating',
        changes: [
          ['Hibernating', 'True', 'Hibernating', 'Fake cluster is stopped'],
          ['Ready', 'False', 'StoppingOrHibernating', HIBERNATING_MSG],
        ],
      });
      return;
    }
    if (after === 'hibernate') {
      ctx.log({ hub: ctx.hub, cd: key }, 'hibernateAfter elapsed, setting spec.powerState=Hibernating');
      await ctx.client.update(R.clusterDeployment, { ...cd, spec: { ...cd.spec, powerState: 'Hibernating' } });
      return;
    }
    if (unsupported) return; // no actuator to stop anything
    return stopStep(ctx, watch, cd, status);
  }
  if (unsupported) return after;
  if (isTruthy(ann(cd, A.fakeCluster))) {
    await apply(ctx, cd, status, {
      powerState: 'Running',
      changes: [RESUMING, ['Ready', 'True', 'Running', RUNNING_MSG]],
    });
    return after;
  }
  return soonest(await startStep(ctx, watch, cd, status), after);
}

async function apply(ctx: HiveContext, cd: Obj, status: Record<string, any>, step: Step): Promise<boolean> {
  const next = {
    ...status,
    powerState: step.powerState,
    conditions: setCdConditions(status.conditions, ctx.clock.now(), ...step.changes),
  };
  return writeStatus(ctx, R.clusterDeployment, cd, next);
}

/** Moves from `from` to `to` once `from` has lasted `duration`; otherwise says when to look again. */
async function advance(
  ctx: HiveContext,
  watch: Stopwatch,
  cd: Obj,
  status: Record<string, any>,
  duration: number,
  to: Step,
) {
  const id = `power/${cd.metadata.uid}`;
  const left = duration - watch.elapsed(id, status.powerState);
  if (left > 0) return { requeueAfter: left };
  if (await apply(ctx, cd, status, to)) watch.mark(id, to.powerState);
  return undefined;
}

async function stopStep(ctx: HiveContext, watch: Stopwatch, cd: Obj, status: Record<string, any>) {
  const d = ctx.durations;
  const ps = status.powerState;
  if (ps === 'Hibernating' && findCondition(status.conditions, 'Hibernating')?.status === 'True') return;
  if (ps !== 'Stopping' && ps !== 'WaitingForMachinesToStop') {
    const to: Step = {
      powerState: 'Stopping',
      changes: [
        ['Hibernating', 'False', 'Stopping', 'Stopping cluster machines'],
        ['Ready', 'False', 'StoppingOrHibernating', HIBERNATING_MSG],
      ],
    };
    if (await apply(ctx, cd, status, to)) watch.mark(`power/${cd.metadata.uid}`, 'Stopping');
    return { requeueAfter: d.stopping };
  }
  if (ps === 'Stopping') {
    return advance(ctx, watch, cd, status, d.stopping, {
      powerState: 'WaitingForMachinesToStop',
      changes: [
        [
          'Hibernating',
          'False',
          'WaitingForMachinesToStop',
          `Stopping cluster machines. Some machines have not yet stopped: ${machineNames(cd).join(',')}`,
        ],
      ],
    });
  }
  return advance(ctx, watch, cd, status, d.machinesStopping, {
    powerState: 'Hibernating',
    changes: [['Hibernating', 'True', 'Hibernating', 'Cluster is stopped']],
  });
}

async function startStep(ctx: HiveContext, watch: Stopwatch, cd: Obj, status: Record<string, any>) {
  const d = ctx.durations;
  const ps = status.powerState;
  const running: Step = { powerState: 'Running', changes: [['Ready', 'True', 'Running', RUNNING_MSG]] };
  if (ps === 'Running' && findCondition(status.conditions, 'Ready')?.status === 'True') return;
  const skipOperators = isTruthy(lbl(cd, L.resumeSkipsClusterOperators));
  const id = `power/${cd.metadata.uid}`;
  switch (ps) {
    case 'StartingMachines':
      return advance(ctx, watch, cd, status, d.startingMachines, {
        powerState: 'WaitingForMachines',
        changes: [
          [
            'Ready',
            'False',
            'WaitingForMachines',
            `Waiting for cluster machines to start. Some machines are not yet running: ${machineNames(cd).join(',')} (step 1/4)`,
          ],
        ],
      });
    case 'WaitingForMachines':
      return advance(ctx, watch, cd, status, d.machinesStarting, {
        powerState: 'WaitingForNodes',
        changes: [['Ready', 'False', 'WaitingForNodes', 'Waiting for Nodes to be ready (step 2/4)']],
      });
    case 'WaitingForNodes':
      // resume-skips-cluster-operators skips steps 3 and 4.
      return advance(
        ctx,
        watch,
        cd,
        status,
        d.nodesStarting,
        skipOperators
          ? running
          : {
              powerState: 'PausingForClusterOperatorsToSettle',
              changes: [
                [
                  'Ready',
                  'False',
                  'PausingForClusterOperatorsToSettle',
                  'Pausing 2m0s for ClusterOperators to settle (step 3/4)',
                ],
              ],
            },
      );
    case 'PausingForClusterOperatorsToSettle':
      return advance(ctx, watch, cd, status, d.clusterOperatorSettle, {
        powerState: 'WaitingForClusterOperators',
        changes: [
          ['Ready', 'False', 'WaitingForClusterOperators', 'Waiting for ClusterOperators to be ready (step 4/4)'],
        ],
      });
    case 'WaitingForClusterOperators':
      return advance(ctx, watch, cd, status, d.clusterOperators, running);
    default: {
      // shouldStartMachines: Hive issues the start call only when Hibernating is True, Unknown, or
      // False/SyncSetsApplied. When Running is asked mid-stop, or before the first SyncSet apply, it only polls
      // (checkClusterRunning): Ready moves on, Hibernating keeps its reason (Stopping, SyncSetsNotApplied, ...).
      const hib = findCondition(status.conditions, 'Hibernating');
      if (hib?.status === 'False' && hib.reason !== 'SyncSetsApplied') {
        // SyncSetsNotApplied: the machines never stopped, so the first poll finds them up and waits for nodes.
        const to: Step =
          ps === 'SyncSetsNotApplied'
            ? {
                powerState: 'WaitingForNodes',
                changes: [['Ready', 'False', 'WaitingForNodes', 'Waiting for Nodes to be ready (step 2/4)']],
              }
            : {
                powerState: 'WaitingForMachines',
                changes: [
                  [
                    'Ready',
                    'False',
                    'WaitingForMachines',
                    `Waiting for cluster machines to start. Some machines are not yet running: ${machineNames(cd).join(',')} (step 1/4)`,
                  ],
                ],
              };
        if (await apply(ctx, cd, status, to)) watch.mark(id, to.powerState);
        return { requeueAfter: to.powerState === 'WaitingForNodes' ? d.nodesStarting : d.machinesStarting };
      }
      // Hibernated, or never started (both conditions Unknown after install): issue the start call.
      const to: Step = {
        powerState: 'StartingMachines',
        changes: [RESUMING, ['Ready', 'False', 'StartingMachines', 'Starting cluster machines (step 1/4)']],
      };
      if (await apply(ctx, cd, status, to)) watch.mark(id, 'StartingMachines');
      return { requeueAfter: d.startingMachines };
    }
  }
}

function machineNames(cd: Obj): string[] {
  const infra = cd.spec.clusterMetadata?.infraID ?? cd.metadata.name;
  const zone = `${cd.spec.platform?.aws?.region ?? cd.spec.platform?.gcp?.region ?? 'zone'}a`;
  // Hive sorts the names so the message is stable.
  return [0, 1, 2]
    .map((i) => `${infra}-master-${i}`)
    .concat([0, 1, 2].map((i) => `${infra}-worker-${zone}-${i}`))
    .sort();
}
