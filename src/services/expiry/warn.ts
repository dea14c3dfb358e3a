// Delivering one expiry warning (one target, one lead time) to every webhook endpoint and as an Event. The
// record of what was delivered lives in an annotation on the target, keyed by the expiry it concerns, and is
// written after each successful delivery: a retry (or a replica, or a Redis flush) sends only what is missing.
import { formatGoDuration } from '../../hive/duration.js';
import { Conflict, Invalid, NotFound, Unavailable } from '../../hive/errors.js';
import { readWarningRecord, WARNINGS_ANNOTATION, type WarningRecord } from '../../hive/expiry/index.js';
import { deliver, listEndpoints, type Notice } from '../notify/index.js';
import type { JobHandler, KubeObject } from '../ports.js';
import type { ExpiryServiceDeps } from './deps.js';
import { claimExpiry, clusterExpiry, type Expiring, type ExpiringKind } from './targets.js';
import { EVENT_SINK } from './warning-plan.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { ClusterClaim } from '../../hive/pools/types.js';

export const WARN_JOB = 'expiry.warn';

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

export function currentExpiring(deps: Pick<ExpiryServiceDeps, 'store'>, kind: ExpiringKind, hub: string, namespace: string, name: string): Expiring | undefined {
  const ref = { hub, namespace, name };
  if (kind === 'ClusterDeployment') {
    const cd = deps.store.cached<ClusterDeployment>('ClusterDeployment', ref);
    return cd ? clusterExpiry(hub, cd) : undefined;
  }
  const claim = deps.store.cached<ClusterClaim>('ClusterClaim', ref);
  return claim ? claimExpiry(hub, claim) : undefined;
}

function human(ms: number): string {
  return ms < 60_000 ? 'less than a minute' : formatGoDuration(Math.round(ms / 60_000) * 60_000);
}

export async function warn(deps: ExpiryServiceDeps, p: WarnPayload, jobId: string): Promise<{ delivered: string[]; already: string[]; outcome: string }> {
  const target = currentExpiring(deps, p.kind, p.hub, p.namespace, p.name);
  if (!target || new Date(target.expiresAtMs).toISOString() !== p.expiresAt) return { delivered: [], already: [], outcome: 'stale: the expiry changed or the object is gone' };
  const now = deps.clock.now();
  if (now >= target.expiresAtMs) return { delivered: [], already: [], outcome: 'expired before the warning could go out' };
  const ref = { hub: p.hub, namespace: p.namespace, name: p.name };
  // Read-modify-write against the live object with its resourceVersion: warnings for other lead times (or
  // replicas) write the same annotation, and the informer cache may not have seen their writes yet.
  const read = async () => {
    const live = await deps.store.get<KubeObject>(p.kind, ref);
    if (!live) throw new NotFound(`${p.kind} ${p.namespace}/${p.name} is gone`);
    return { live, rec: readWarningRecord(live.metadata.annotations, target.expiresAtMs) };
  };
  const update = async (change: (rec: WarningRecord) => void): Promise<WarningRecord> => {
    for (let attempt = 0; ; attempt++) {
      const { live, rec } = await read();
      change(rec);
      try {
        await deps.store.mergePatch(p.kind, ref, { metadata: { annotations: { [WARNINGS_ANNOTATION]: JSON.stringify(rec) } } }, { resourceVersion: live.metadata.resourceVersion });
        return rec;
      } catch (err) {
        if (!(err instanceof Conflict) || attempt >= 4) throw err;
      }
    }
  };
  const stamp = (lead: string, sink: string) => (rec: WarningRecord) => {
    rec.sent[lead] = { ...rec.sent[lead], [sink]: new Date(deps.clock.now()).toISOString() };
  };
  let record = (await read()).rec;
  const left = human(target.expiresAtMs - now);
  const what = p.kind === 'ClusterClaim' ? `Claim ${p.namespace}/${p.name} (cluster ${target.cluster.namespace}/${target.cluster.name})` : `Cluster ${p.hub}/${p.namespace}/${p.name}`;
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
  if (superseded.length > 0) record = await update((rec) => superseded.forEach((lead) => (rec.sent[lead] ??= { superseded: notice.at })));
  const delivered: string[] = [];
  const already: string[] = [];
  if (!record.sent[p.lead]?.[EVENT_SINK]) {
    // Keyed by the job (one per object, lead and expiry): a run that crashed before stamping it writes no second one.
    await deps.store.recordEvent(p.kind, ref, { type: 'Warning', reason: 'ExpiryWarning', action: 'Warn', message: notice.message, key: `${jobId}/ExpiryWarning` });
    record = await update(stamp(p.lead, EVENT_SINK));
  }
  const failures: Array<{ endpoint: string; err: unknown }> = [];
  for (const ep of listEndpoints(deps)) {
    const name = ep.metadata.name;
    if (record.sent[p.lead]?.[name]) {
      already.push(name);
      continue;
    }
    try {
      const res = await deliver({ ...deps, timeoutMs: deps.webhookTimeoutMs }, ep, notice);
      record = await update(stamp(p.lead, name));
      delivered.push(name);
      await deps.store.mergePatch('WebhookEndpoint', { hub: deps.stateHub, namespace: deps.stateNamespace, name }, { status: { lastDelivery: { at: notice.at, ok: true, statusCode: res.statusCode, message: notice.id } } }, { subresource: 'status' }).catch(() => undefined);
    } catch (err) {
      failures.push({ endpoint: name, err });
      const message = err instanceof Error ? err.message : String(err);
      deps.log.warn({ endpoint: name, jobId, message }, 'webhook delivery failed');
      await deps.store.mergePatch('WebhookEndpoint', { hub: deps.stateHub, namespace: deps.stateNamespace, name }, { status: { lastDelivery: { at: notice.at, ok: false, message } } }, { subresource: 'status' }).catch(() => undefined);
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

export function warnHandler(deps: ExpiryServiceDeps): JobHandler {
  return async (raw, ctx) => warn(deps, raw as unknown as WarnPayload, ctx.jobId);
}
