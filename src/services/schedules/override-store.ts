// ClusterOverride resources: one per cluster and type, on the state hub. `spec.from` is written from Beekeeper's
// clock (not the API server's creationTimestamp) so "skip the *next* hibernation" means next from our now.
import { Invalid, NotFound, invalid } from '../../hive/errors.js';
import { OVERRIDE_TYPES, type OverrideType, type PowerOverride } from '../../hive/schedule/index.js';
import type {
  ClusterOverrideSpec,
  ClusterOverrideStatus,
  OverrideRequest,
} from '../../hive/resources/cluster-override.js';
import { markAnnotations, type IdempotencyMark } from '../idempotency/mark.js';
import type { KubeObject } from '../ports.js';
import { BEEKEEPER_API_VERSION } from '../../hive/resources/crd.js';
import { stateRef, type ScheduleServiceDeps } from './deps.js';

export interface ClusterOverride extends KubeObject {
  spec: ClusterOverrideSpec;
  status?: ClusterOverrideStatus;
}

/** `until` (ISO time) or `for` (a duration from now) is required for keepAwake. */
export type { OverrideRequest };

export const CLUSTER_LABELS = {
  hub: 'beekeeper.io/cluster-hub',
  namespace: 'beekeeper.io/cluster-namespace',
  name: 'beekeeper.io/cluster-name',
};

export function overrideName(hub: string, namespace: string, name: string, type: OverrideType): string {
  return `${hub}.${namespace}.${name}.${type === 'keepAwake' ? 'keep-awake' : 'skip-next-hibernation'}`;
}

export function toPowerOverride(cr: ClusterOverride): PowerOverride {
  const from = Date.parse(cr.spec.from ?? cr.metadata.creationTimestamp ?? '');
  const until = cr.spec.until ? Date.parse(cr.spec.until) : undefined;
  return {
    name: cr.metadata.name,
    type: cr.spec.type,
    fromMs: Number.isNaN(from) ? 0 : from,
    ...(until !== undefined && !Number.isNaN(until) ? { untilMs: until } : {}),
    by: cr.spec.by,
    reason: cr.spec.reason,
  };
}

export function overridesOf(
  deps: Pick<ScheduleServiceDeps, 'store' | 'stateHub' | 'stateNamespace'>,
  hub: string,
  namespace: string,
  name: string,
): ClusterOverride[] {
  return deps.store
    .cachedList<ClusterOverride>('ClusterOverride', { hub: deps.stateHub, namespace: deps.stateNamespace })
    .map((o) => o.object)
    .filter(
      (o) => o.spec?.cluster?.hub === hub && o.spec.cluster.namespace === namespace && o.spec.cluster.name === name,
    );
}

export function parseOverrideRequest(
  body: OverrideRequest,
  nowMs: number,
  parseDuration: (s: string) => number | undefined,
): { untilMs?: number } {
  const issues: Array<{ field: string; reason: string }> = [];
  if (!OVERRIDE_TYPES.includes(body.type))
    issues.push({ field: 'type', reason: `must be one of ${OVERRIDE_TYPES.join(', ')}` });
  if (typeof body.by !== 'string' || body.by.trim() === '')
    issues.push({ field: 'by', reason: 'say who asks for the override' });
  if (typeof body.reason !== 'string' || body.reason.trim() === '')
    issues.push({ field: 'reason', reason: 'say why (it is recorded)' });
  let untilMs: number | undefined;
  if (body.until !== undefined && body.for !== undefined)
    issues.push({ field: 'for', reason: 'give until or for, not both' });
  else if (body.until !== undefined) {
    untilMs = Date.parse(body.until);
    if (Number.isNaN(untilMs)) issues.push({ field: 'until', reason: `"${body.until}" is not an ISO 8601 time` });
    else if (untilMs <= nowMs) issues.push({ field: 'until', reason: `${body.until} is in the past` });
  } else if (body.for !== undefined) {
    const ms = parseDuration(body.for);
    if (ms === undefined || ms <= 0)
      issues.push({
        field: 'for',
        reason: `"${body.for}" is not a positive duration such as 4h (units h, m, s; no d)`,
      });
    else untilMs = nowMs + ms;
  } else if (body.type === 'keepAwake')
    issues.push({ field: 'until', reason: 'a keep-awake override needs until (a time) or for (a duration)' });
  if (issues.length > 0) throw new Invalid(issues.map((i) => `${i.field}: ${i.reason}`).join('; '), issues);
  return untilMs === undefined ? {} : { untilMs };
}

export async function saveOverride(
  deps: Pick<ScheduleServiceDeps, 'store' | 'stateHub' | 'stateNamespace'>,
  cluster: { hub: string; namespace: string; name: string },
  req: OverrideRequest,
  fromMs: number,
  untilMs: number | undefined,
  mark?: IdempotencyMark,
): Promise<ClusterOverride> {
  const name = overrideName(cluster.hub, cluster.namespace, cluster.name, req.type);
  if (name.length > 253) throw invalid('name', 'hub, namespace and name together are too long for an override name');
  const spec: ClusterOverride['spec'] = {
    cluster,
    type: req.type,
    from: new Date(fromMs).toISOString(),
    ...(untilMs !== undefined ? { until: new Date(untilMs).toISOString() } : {}),
    by: req.by,
    reason: req.reason,
  };
  const ref = stateRef(deps, name);
  const existing = await deps.store.get<ClusterOverride>('ClusterOverride', ref);
  if (existing) {
    // Replace keeps one override per cluster and type; a new request starts it afresh (status cleared below).
    const annotations = { ...existing.metadata.annotations, ...markAnnotations(mark) };
    await deps.store.replace<ClusterOverride>('ClusterOverride', ref, {
      ...existing,
      metadata: { ...existing.metadata, annotations },
      spec,
    });
  } else {
    await deps.store.create<ClusterOverride>('ClusterOverride', deps.stateHub, {
      apiVersion: BEEKEEPER_API_VERSION,
      kind: 'ClusterOverride',
      metadata: {
        name,
        namespace: deps.stateNamespace,
        labels: {
          [CLUSTER_LABELS.hub]: cluster.hub,
          [CLUSTER_LABELS.namespace]: cluster.namespace,
          [CLUSTER_LABELS.name]: cluster.name,
        },
        ...(mark ? { annotations: markAnnotations(mark) } : {}),
      },
      spec,
    });
  }
  // The status subresource survives a replace: what the previous override went through (the edge that used it up)
  // is removed here, not only its phase reset (null deletes a field in a merge patch, RFC 7386).
  const fresh = { phase: 'Active', message: '', consumedEdge: null, updatedAt: new Date(fromMs).toISOString() };
  return deps.store.mergePatch<ClusterOverride>('ClusterOverride', ref, { status: fresh }, { subresource: 'status' });
}

export async function deleteOverrides(
  deps: Pick<ScheduleServiceDeps, 'store' | 'stateHub' | 'stateNamespace'>,
  cluster: { hub: string; namespace: string; name: string },
  type: OverrideType | undefined,
): Promise<string[]> {
  if (type !== undefined && !OVERRIDE_TYPES.includes(type))
    throw invalid('type', `must be one of ${OVERRIDE_TYPES.join(', ')}`);
  const targets = overridesOf(deps, cluster.hub, cluster.namespace, cluster.name).filter(
    (o) => type === undefined || o.spec.type === type,
  );
  if (targets.length === 0)
    throw new NotFound(
      `no ${type ?? ''} override on ${cluster.hub}/${cluster.namespace}/${cluster.name}`.replace('  ', ' '),
    );
  for (const o of targets) await deps.store.delete('ClusterOverride', stateRef(deps, o.metadata.name));
  return targets.map((o) => o.metadata.name);
}
