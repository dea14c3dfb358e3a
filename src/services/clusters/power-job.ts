// cluster.hibernate / cluster.resume: patch spec.powerState and follow Hive's status.powerState through every step
// (REFERENCE.md §2.5) until the target is reached. Hive has no hibernate/resume annotations; spec.powerState is the
// only lever, and Hive may flip it itself (hibernateAfter), so the job watches spec too.
import { CONDITIONS } from '../../hive/constants.js';
import { formatGoDuration } from '../../hive/duration.js';
import { Conflict, Invalid, NotFound, Unavailable } from '../../hive/errors.js';
import { findCondition, type ClusterDeployment } from '../../hive/types.js';
import type { JobContext, ObjectRef } from '../ports.js';
import { audit } from './audit.js';
import { timeoutsOf, type ClusterJobDeps } from './deps.js';
import { createStepRecorder } from './step-recorder.js';
import { desired, hopeless, patchPowerState, POWER_OPERATION_ANNOTATION, type PowerTarget } from './power-change.js';

export interface PowerPayload {
  hub: string;
  namespace: string;
  name: string;
  target: PowerTarget;
  /**
   * The cluster as the request saw it before it set spec.powerState itself (intent first): what the job reports
   * as changed, and where Hive's steps start. Absent when the job makes the change (older jobs).
   */
  before?: { requested: PowerTarget; observed?: string };
}

export interface PowerResult {
  powerState: PowerTarget;
  /**
   * Whether this job changed spec.powerState: judged against the cluster as the job's first run saw it, so a job
   * that finishes after a crash or a hand-back still reports the change its first run made.
   */
  changed: boolean;
}

/** Reached means Hive reports the target, and for Running also Ready=True (both conditions stable, §2.5). */
function reached(cd: ClusterDeployment, target: PowerTarget): boolean {
  if (cd.status?.powerState !== target) return false;
  const cond = findCondition(cd, target === 'Running' ? CONDITIONS.ready : CONDITIONS.hibernating);
  return cond === undefined || cond.status === 'True';
}

export async function runPower(deps: ClusterJobDeps, p: PowerPayload, ctx: JobContext): Promise<PowerResult> {
  const { store } = deps;
  const ref: ObjectRef = { hub: p.hub, namespace: p.namespace, name: p.name };
  const verb = p.target === 'Hibernating' ? 'Hibernate' : 'Resume';
  const steps = createStepRecorder(ctx);
  // Keyed by the job: a run after a crash or a hand-back records what the job did once, whichever run gets there.
  const requestedEvent = {
    type: 'Normal' as const,
    reason: `${verb}Requested`,
    action: verb,
    message: `Beekeeper set spec.powerState to ${p.target} (job ${ctx.jobId})`,
    key: `${ctx.jobId}/${verb}Requested`,
  };
  const reachedEvent = {
    type: 'Normal' as const,
    reason: p.target === 'Hibernating' ? 'Hibernated' : 'Resumed',
    action: verb,
    message: `Hive reports status.powerState ${p.target}`,
    key: `${ctx.jobId}/reached`,
  };

  const cd =
    store.cached<ClusterDeployment>('ClusterDeployment', ref) ??
    (await store.get<ClusterDeployment>('ClusterDeployment', ref));
  if (!cd) throw new NotFound(`ClusterDeployment ${p.namespace}/${p.name} not found on hub ${p.hub}`);
  // Whether Beekeeper changed the power state is judged against the cluster before the change: as the request saw
  // it (it made the change), or as the job's first run saw it, kept in the job (a run after a crash or a
  // hand-back may find its own patch applied).
  const seen = { requested: desired(cd), observed: cd.status?.powerState };
  const before = p.before ?? (ctx.once ? await ctx.once('before', async () => seen) : seen);
  const changed = before.requested !== p.target;
  const requestedEarlier = changed && desired(cd) === p.target;
  if (requestedEarlier) {
    if (p.before) {
      // The request made the change; its step opens the job's report, once (a run after a crash keeps the first's).
      const step = async () => steps.record(`${verb}Requested`, `spec.powerState set to ${p.target} by the request`);
      await (ctx.once ? ctx.once('requested', async () => (await step(), true)) : step());
    } else
      ctx.log.info(
        { ...ref, jobId: ctx.jobId },
        `spec.powerState was set to ${p.target} by an earlier run of this job`,
      );
    await audit(store, ctx.log, ref, requestedEvent, { jobId: ctx.jobId });
  }
  if (desired(cd) === p.target && reached(cd, p.target)) {
    if (changed) steps.record(p.target, `status.powerState is ${p.target}`);
    else steps.record(`Already${p.target}`, `status.powerState is already ${p.target}`);
    await steps.flush();
    deps.onPowerTransition?.({ hub: p.hub, to: p.target, outcome: changed ? 'completed' : 'unchanged' });
    if (changed) await audit(store, ctx.log, ref, reachedEvent, { jobId: ctx.jobId });
    return { powerState: p.target, changed };
  }
  const verdict = hopeless(cd, p.target);
  if (verdict) {
    deps.onPowerTransition?.({ hub: p.hub, to: p.target, outcome: 'failed' });
    await audit(
      store,
      ctx.log,
      ref,
      { type: 'Warning', reason: `${verb}Refused`, action: verb, message: verdict.message },
      { jobId: ctx.jobId },
    );
    throw verdict;
  }
  if (desired(cd) !== p.target && cd.metadata.annotations?.[POWER_OPERATION_ANNOTATION] === ctx.jobId) {
    // This job's change was made and someone changed spec.powerState since (a person, Hive's hibernateAfter): a
    // job run again after Redis lost it must not undo a later decision.
    deps.onPowerTransition?.({ hub: p.hub, to: p.target, outcome: 'failed' });
    const message = `spec.powerState was set to ${p.target} for this job and changed to ${cd.spec.powerState || 'Running'} since; not setting it again`;
    await audit(
      store,
      ctx.log,
      ref,
      { type: 'Warning', reason: `${verb}Superseded`, action: verb, message, key: `${ctx.jobId}/${verb}Superseded` },
      { jobId: ctx.jobId },
    );
    throw Object.assign(new Invalid(message), { reason: 'PowerStateChanged' });
  }

  // Subscribe before patching so no status step slips between the patch and the first event. Steps start at the
  // first state that differs from where the cluster was before the change: events still in flight from before
  // the patch repeat the old state and are not progress, but a state Hive reached after the request's change and
  // before this job started is.
  const baseline = before.observed ?? cd.status?.powerState;
  let moved = false;
  let last = cd.status?.powerState || 'none yet';
  // Only a spec change seen after our own patch is someone else's doing; the watch may still deliver older events.
  let sawOurSpec = false;
  const follow = store.waitFor<ClusterDeployment, ClusterDeployment>(
    'ClusterDeployment',
    ref,
    (obj) => {
      if (!obj) throw new Conflict('the ClusterDeployment was deleted while its power state was changing');
      if (obj.status?.powerState) {
        last = obj.status.powerState;
        const cond = findCondition(obj, p.target === 'Running' ? CONDITIONS.ready : CONDITIONS.hibernating);
        if (obj.status.powerState !== baseline) moved = true;
        if (moved) steps.record(obj.status.powerState, cond?.message);
      }
      const bad = hopeless(obj, p.target);
      if (bad) throw bad;
      if (desired(obj) === p.target) sawOurSpec = true;
      else if (sawOurSpec) {
        throw new Conflict(
          `spec.powerState was changed to ${obj.spec.powerState || 'Running'} by someone else (Hive's hibernateAfter, or another client)`,
        );
      }
      return desired(obj) === p.target && reached(obj, p.target) ? obj : undefined;
    },
    { timeoutMs: timeoutsOf(deps).powerMs, signal: ctx.signal },
  );
  follow.catch(() => undefined); // handled below; avoid an unhandled rejection while the patch is in flight

  if (desired(cd) !== p.target) {
    // Recorded first, so Hive's first steps (which may arrive before the patch answer) come after it.
    steps.record(`${verb}Requested`, `spec.powerState set to ${p.target}`);
    // Over any version, as the job always has: its watch (above) fails the job on a later spec change by someone else.
    await patchPowerState(store, ref, cd, p.target, { operation: ctx.jobId, conditional: false });
    await audit(store, ctx.log, ref, requestedEvent, { jobId: ctx.jobId });
  }

  try {
    await follow.catch((err: unknown) => {
      if (!(err instanceof Unavailable) || ctx.signal.aborted) throw err;
      throw new Unavailable(
        `${verb} not finished after ${formatGoDuration(timeoutsOf(deps).powerMs)}: Hive last reported status.powerState ${last}`,
        err.retryAfterSeconds,
        { cause: err },
      );
    });
  } catch (err) {
    await steps.flush();
    // A job handed back at shutdown has not failed: the next worker carries on with it.
    if (ctx.signal.aborted) throw err;
    deps.onPowerTransition?.({ hub: p.hub, to: p.target, outcome: 'failed' });
    const reason = (err as { reason?: string }).reason;
    await audit(
      store,
      ctx.log,
      ref,
      {
        type: 'Warning',
        reason: `${verb}Failed`,
        action: verb,
        message: `${verb} did not finish: ${(err as Error).message}`,
      },
      { jobId: ctx.jobId, hiveReason: reason },
    );
    throw err;
  }
  await steps.flush();
  deps.onPowerTransition?.({ hub: p.hub, to: p.target, outcome: 'completed' });
  await audit(store, ctx.log, ref, reachedEvent, { jobId: ctx.jobId });
  return { powerState: p.target, changed };
}
