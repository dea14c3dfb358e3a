// Delivering one expiry warning (one target, one lead time) to every webhook endpoint and as an Event. The
// record of what was delivered lives in an annotation on the target, keyed by the expiry it concerns, and is
// written after each successful delivery: a retry (or a replica, or a Redis flush) sends only what is missing.
// Before a delivery the run also writes that it is sending it (`sending`): when Redis loses a job whose run is
// still waiting for a slow receiver, the resync queues it again, and the second run must not deliver it too.
import { randomUUID } from 'node:crypto';
import { formatGoDuration } from '../../hive/duration.js';
import { Invalid, NotFound, Unavailable } from '../../hive/errors.js';
import { readWarningRecord, WARNINGS_ANNOTATION, type WarningRecord } from '../../hive/expiry/index.js';
import { deliver, type Notice } from '../notify/index.js';
import { endpointsFor } from './expiring-team.js';
import { relocatingMessage } from '../../hive/relocation-marks.js';
import { Type as T } from 'typebox';
import { BACKGROUND_PRIORITY, defineJob, handleJob, refFields } from '../job-definition.js';
import type { KubeObject } from '../ports.js';
import { retryOnConflict } from '../retry-on-conflict.js';
import type { ExpiryServiceDeps } from './deps.js';
import { claimExpiry, clusterExpiry, type Expiring, type ExpiringKind } from './targets.js';
import { EVENT_SINK } from './warning-plan.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { ClusterClaim } from '../../hive/pools/types.js';

// A receiver may be down for a while: ten tries over about half an hour; delivered endpoints are not re-sent.
export const WARN_JOB = defineJob({
  type: 'expiry.warn',
  payload: T.Object({
    ...refFields(),
    kind: T.Union([T.Literal('ClusterDeployment'), T.Literal('ClusterClaim')]),
    expiresAt: T.String(),
    lead: T.String(),
    superseded: T.Optional(T.Array(T.String())),
  }),
  attempts: 10,
  backoffMs: 3000,
  class: 'background',
  priority: BACKGROUND_PRIORITY.warnings,
});

export interface WarnPayload {
  kind: ExpiringKind;
  hub: string;
  namespace: string;
  name: string;
  expiresAt: string;
  lead: string;
  /** Leads that this one makes pointless (sent together, recorded as superseded). */
  superseded?: string[];
}

export function currentExpiring(
  deps: Pick<ExpiryServiceDeps, 'store'>,
  kind: ExpiringKind,
  hub: string,
  namespace: string,
  name: string,
): Expiring | undefined {
  const ref = { hub, namespace, name };
  if (kind === 'ClusterDeployment') {
    const cd = deps.store.cached<ClusterDeployment>('ClusterDeployment', ref);
    return cd ? clusterExpiry(hub, cd) : undefined;
  }
  const claim = deps.store.cached<ClusterClaim>('ClusterClaim', ref);
  return claim ? claimExpiry(hub, claim) : undefined;
}

/**
 * How long a run's `sending` mark holds off other runs: longer than a delivery can take, so a run that died
 * mid-delivery delays the retry by this much at most.
 */
const sendingHoldMs = (deps: Pick<ExpiryServiceDeps, 'webhookTimeoutMs'>) => (deps.webhookTimeoutMs ?? 10_000) + 30_000;

function human(ms: number): string {
  return ms < 60_000 ? 'less than a minute' : formatGoDuration(Math.round(ms / 60_000) * 60_000);
}

export async function warn(
  deps: ExpiryServiceDeps,
  p: WarnPayload,
  jobId: string,
): Promise<{ delivered: string[]; already: string[]; outcome: string }> {
  const target = currentExpiring(deps, p.kind, p.hub, p.namespace, p.name);
  if (!target || new Date(target.expiresAtMs).toISOString() !== p.expiresAt)
    return { delivered: [], already: [], outcome: 'stale: the expiry changed or the object is gone' };
  const now = deps.clock.now();
  if (now >= target.expiresAtMs)
    return { delivered: [], already: [], outcome: 'expired before the warning could go out' };
  const ref = { hub: p.hub, namespace: p.namespace, name: p.name };
  const moving = deps.store.cached<ClusterDeployment>('ClusterDeployment', target.cluster);
  const relocating = moving && relocatingMessage(moving);
  if (relocating) {
    // Held back, not dropped: retried while the move lasts. Once moved, the destination hub's timers owe it (the
    // record of what was sent travels with the cluster); a failed or aborted move leaves it due here.
    await deps.store.recordEvent(p.kind, ref, {
      type: 'Normal',
      reason: 'Relocating',
      action: 'Warn',
      message: `Expiry warning (${p.lead} ahead) held back: ${relocating}`,
      key: `${jobId}/Relocating`,
    });
    throw new Unavailable(`expiry warning held back (Relocating): ${relocating}`);
  }
  // Read-modify-write against the live object with its resourceVersion: warnings for other lead times (or
  // replicas) write the same annotation, and the informer cache may not have seen their writes yet.
  const read = async () => {
    const live = await deps.store.get<KubeObject>(p.kind, ref);
    if (!live) throw new NotFound(`${p.kind} ${p.namespace}/${p.name} is gone`);
    return { live, rec: readWarningRecord(live.metadata.annotations, target.expiresAtMs) };
  };
  /** `change` returns false when it changed nothing: then nothing is written. */
  const update = (change: (rec: WarningRecord) => void | boolean): Promise<WarningRecord> =>
    retryOnConflict(async () => {
      const { live, rec } = await read();
      if (change(rec) === false) return rec;
      await deps.store.mergePatch(
        p.kind,
        ref,
        { metadata: { annotations: { [WARNINGS_ANNOTATION]: JSON.stringify(rec) } } },
        { resourceVersion: live.metadata.resourceVersion },
      );
      return rec;
    });
  const run = randomUUID();
  const unmark = (rec: WarningRecord, lead: string, sink: string) => {
    const sending = rec.sending;
    const forLead = sending?.[lead];
    if (!sending || !forLead || forLead[sink]?.by !== run) return false;
    delete forLead[sink];
    if (Object.keys(forLead).length === 0) delete sending[lead];
    if (Object.keys(sending).length === 0) delete rec.sending;
    return true;
  };
  const stamp = (lead: string, sink: string) => (rec: WarningRecord) => {
    rec.sent[lead] = { ...rec.sent[lead], [sink]: new Date(deps.clock.now()).toISOString() };
    unmark(rec, lead, sink);
  };
  /** Marks the delivery as this run's, unless it went out meanwhile or another run is sending it right now. */
  const take = async (lead: string, sink: string): Promise<'mine' | 'sent' | 'taken'> => {
    let verdict: 'mine' | 'sent' | 'taken' = 'mine';
    record = await update((rec) => {
      const other = rec.sending?.[lead]?.[sink];
      if (rec.sent[lead]?.[sink]) verdict = 'sent';
      else if (other && other.by !== run && deps.clock.now() - Date.parse(other.at) < sendingHoldMs(deps))
        verdict = 'taken';
      else verdict = 'mine';
      if (verdict !== 'mine') return false;
      ((rec.sending ??= {})[lead] ??= {})[sink] = { by: run, at: new Date(deps.clock.now()).toISOString() };
      return true;
    });
    return verdict;
  };
  let record = (await read()).rec;
  const left = human(target.expiresAtMs - now);
  const what =
    p.kind === 'ClusterClaim'
      ? `Claim ${p.namespace}/${p.name} (cluster ${target.cluster.namespace}/${target.cluster.name})`
      : `Cluster ${p.hub}/${p.namespace}/${p.name}`;
  const notice: Notice = {
    event: p.kind === 'ClusterClaim' ? 'ClaimExpiryWarning' : 'ClusterExpiryWarning',
    id: jobId,
    at: new Date(now).toISOString(),
    cluster: target.cluster,
    ...(p.kind === 'ClusterClaim' ? { claim: { namespace: p.namespace, name: p.name } } : {}),
    expiresAt: p.expiresAt,
    lead: p.lead,
    message: `${what} will be deleted at ${p.expiresAt} (in ${left}). Extend it if you still need it.`,
  };

  const superseded = (p.superseded ?? []).filter((lead) => !record.sent[lead]);
  if (superseded.length > 0)
    record = await update((rec) => superseded.forEach((lead) => (rec.sent[lead] ??= { superseded: notice.at })));
  const delivered: string[] = [];
  const already: string[] = [];
  if (!record.sent[p.lead]?.[EVENT_SINK]) {
    // Keyed by the job (one per object, lead and expiry): a run that crashed before stamping it writes no second one.
    await deps.store.recordEvent(p.kind, ref, {
      type: 'Warning',
      reason: 'ExpiryWarning',
      action: 'Warn',
      message: notice.message,
      key: `${jobId}/ExpiryWarning`,
    });
    record = await update(stamp(p.lead, EVENT_SINK));
  }
  const failures: Array<{ endpoint: string; err: unknown }> = [];
  // Platform-wide endpoints and those of the target's team: another team's never hear of it.
  for (const ep of endpointsFor(deps, target)) {
    const name = ep.metadata.name;
    if (record.sent[p.lead]?.[name]) {
      already.push(name);
      continue;
    }
    const taken = await take(p.lead, name);
    if (taken === 'sent') {
      already.push(name);
      continue;
    }
    if (taken === 'taken') {
      // The other run records it; this job retries and then finds it delivered (or the mark lapsed).
      failures.push({
        endpoint: name,
        err: new Unavailable(`another run of this warning is delivering it to ${name}`),
      });
      continue;
    }
    try {
      const res = await deliver({ ...deps, timeoutMs: deps.webhookTimeoutMs }, ep, notice);
      record = await update(stamp(p.lead, name));
      delivered.push(name);
      await deps.store
        .mergePatch(
          'WebhookEndpoint',
          { hub: deps.stateHub, namespace: deps.stateNamespace, name },
          { status: { lastDelivery: { at: notice.at, ok: true, statusCode: res.statusCode, message: notice.id } } },
          { subresource: 'status' },
        )
        .catch(() => undefined);
    } catch (err) {
      failures.push({ endpoint: name, err });
      // Not delivered: a retry need not wait for the mark to lapse.
      record = await update((rec) => unmark(rec, p.lead, name)).catch(() => record);
      const message = err instanceof Error ? err.message : String(err);
      deps.log.warn({ endpoint: name, jobId, message }, 'webhook delivery failed');
      await deps.store
        .mergePatch(
          'WebhookEndpoint',
          { hub: deps.stateHub, namespace: deps.stateNamespace, name },
          { status: { lastDelivery: { at: notice.at, ok: false, message } } },
          { subresource: 'status' },
        )
        .catch(() => undefined);
    }
  }
  if (failures.length > 0) {
    const msg = `delivered to ${delivered.length + already.length}, failed for ${failures.map((f) => f.endpoint).join(', ')}`;
    // Retry while any failure may pass; the record makes the retry skip what already went out.
    if (failures.some((f) => !(f.err instanceof Invalid))) throw new Unavailable(msg);
    throw new Invalid(msg);
  }
  return { delivered, already, outcome: 'warned' };
}

export const warnJob = (deps: ExpiryServiceDeps) => handleJob(WARN_JOB, (p, ctx) => warn(deps, p, ctx.jobId));
