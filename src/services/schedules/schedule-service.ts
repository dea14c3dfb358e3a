// The schedules use case: CRUD over HibernationSchedule resources, previews, per-cluster views and overrides,
// manual sweeps, and the job handlers the worker runs (ARCHITECTURE.md, plain factories).
import { parseGoDuration } from '../../hive/duration.js';
import { Conflict, NotFound, invalid, type FieldIssue } from '../../hive/errors.js';
import type { OverrideType } from '../../hive/schedule/index.js';
import { jobOf, type JobRegistration } from '../job-definition.js';
import type { JobView } from '../ports.js';
import { markAnnotations, type IdempotencyMark } from '../idempotency/mark.js';
import { targetOf, type Requester } from '../operations/operation.js';
import { BEEKEEPER_API_VERSION } from '../../hive/resources/crd.js';
import { stateRef, type ScheduleServiceDeps } from './deps.js';
import { deleteOverrides, parseOverrideRequest, saveOverride, type OverrideRequest } from './override-store.js';
import {
  clusterSchedule,
  overrideViews,
  previewSchedule,
  type ClusterScheduleView,
  type OverrideView,
  type PreviewQuery,
  type SchedulePreview,
} from './preview.js';
import { reconcileClusterJob } from './reconcile-cluster.js';
import {
  checkName,
  compile,
  nameIssues,
  scheduleIssues,
  validateScheduleSpec,
  type HibernationSchedule,
  type HibernationScheduleSpec,
} from './schedule-resource.js';
import { RUN_JOB } from './schedule-jobs.js';
import { sweepJobs, type SweepPayload } from './sweep.js';
import { governance, listSchedules } from './cluster-schedule.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { ScheduleView } from '../../hive/resources/hibernation-schedule.js';
import type { Caller, Role } from '../../auth/caller.js';
import {
  creationTeam,
  notFound,
  ownerLabels,
  ownerTeam,
  replacementTeam,
  requireOnCluster,
  requireRole,
  sees,
  visibleOr,
  OWNER_TEAM_LABEL,
} from '../team-scope.js';

export type { ScheduleView };

export type ScheduleService = ReturnType<typeof createScheduleService>;

export function createScheduleService(deps: ScheduleServiceDeps) {
  const view = (cr: HibernationSchedule): ScheduleView => {
    const team = ownerTeam(cr);
    const base = {
      name: cr.metadata.name,
      ...(team ? { team } : {}),
      spec: cr.spec,
      status: cr.status ?? {},
      ...(cr.metadata.creationTimestamp ? { createdAt: cr.metadata.creationTimestamp } : {}),
      ...(cr.metadata.resourceVersion ? { resourceVersion: cr.metadata.resourceVersion } : {}),
    };
    // A schedule written straight to Kubernetes (GitOps) may be invalid: show what is wrong, never fail the list.
    const problems = scheduleIssues(cr.spec ?? ({} as HibernationScheduleSpec));
    if (problems.length > 0)
      return {
        ...base,
        desiredNow: { state: 'Unknown', reason: 'the schedule is invalid; it does nothing until fixed' },
        problems,
      };
    const s = compile(cr);
    const now = deps.clock.now();
    const desired = s.desiredState(now);
    const next = s.nextEdge(now);
    return {
      ...base,
      desiredNow: { state: desired.state, reason: desired.reason },
      ...(next ? { nextEdge: { at: next.at, local: next.local, action: next.action, reason: next.reason } } : {}),
    };
  };

  /** The schedule as the caller may see it: another team's answers as a missing one. */
  const fetch = async (name: string, caller: Caller): Promise<HibernationSchedule> => {
    checkName(name);
    const cr = await deps.store.get<HibernationSchedule>('HibernationSchedule', stateRef(deps, name));
    return visibleOr(caller, cr ?? undefined, notFound(`schedule ${name}`));
  };

  /** ...and the caller holds `needed` in its team. */
  const fetchFor = async (name: string, caller: Caller, needed: Role, doing: string) => {
    const cr = await fetch(name, caller);
    requireRole(caller, ownerTeam(cr), needed, doing);
    return cr;
  };

  /** A cluster the caller sees (viewer in its team, else 404 as if missing) and holds `needed` on. */
  const cluster = (
    hub: string,
    namespace: string,
    name: string,
    caller: Caller,
    needed: Role = 'viewer',
    doing = 'reading this cluster',
  ): ClusterDeployment => {
    if (!deps.store.hubNames().includes(hub)) throw new NotFound(`hub ${hub} is not configured`);
    const cd = deps.store.cached<ClusterDeployment>('ClusterDeployment', { hub, namespace, name });
    if (!cd) throw new NotFound(`cluster ${hub}/${namespace}/${name} not found`);
    requireOnCluster(deps, { hub, namespace, name }, caller, needed, doing);
    return cd;
  };

  const specOf = (body: Record<string, unknown>, more: FieldIssue[] = []): HibernationScheduleSpec => {
    const { name: _name, team: _team, ...spec } = body;
    validateScheduleSpec(spec as unknown as HibernationScheduleSpec, more);
    return spec as unknown as HibernationScheduleSpec;
  };

  return {
    /** The schedules the caller sees: its teams' (platform admins: all, platform-wide ones included). */
    async list(caller: Caller): Promise<ScheduleView[]> {
      return listSchedules(deps)
        .filter((s) => sees(caller, ownerTeam(s)))
        .map(view);
    },

    async get(name: string, caller: Caller): Promise<ScheduleView> {
      return view(await fetch(name, caller));
    },

    /**
     * `body.team`: the owning team (team-scope.ts creationTeam); the schedule then acts on that team's clusters
     * only. `mark`: the request's Idempotency-Key, recorded on the schedule.
     */
    async create(body: Record<string, unknown>, caller: Caller, mark?: IdempotencyMark): Promise<ScheduleView> {
      const spec = specOf(body, nameIssues(body.name));
      const name = body.name as string;
      const team = creationTeam(caller, body.team as string | undefined, 'admin', 'creating a schedule');
      if (await deps.store.get('HibernationSchedule', stateRef(deps, name)))
        throw new Conflict(`schedule ${name} already exists; use PUT /v1/schedules/${name} to change it`);
      const cr = await deps.store.create<HibernationSchedule>('HibernationSchedule', deps.stateHub, {
        apiVersion: BEEKEEPER_API_VERSION,
        kind: 'HibernationSchedule',
        metadata: {
          name,
          namespace: deps.stateNamespace,
          ...(team ? { labels: ownerLabels(team) } : {}),
          ...(mark ? { annotations: markAnnotations(mark) } : {}),
        },
        spec,
      });
      deps.log.info({ schedule: name, team, timeZone: spec.timeZone }, 'schedule created');
      return view(cr);
    },

    /** The owning team stays unless a platform admin names another (`body.team`). */
    async replace(name: string, body: Record<string, unknown>, caller: Caller): Promise<ScheduleView> {
      if (body.name !== undefined && body.name !== name)
        throw invalid('name', `the body names ${String(body.name)} but the URL names ${name}`);
      const spec = specOf(body);
      const existing = await fetchFor(name, caller, 'admin', 'replacing a schedule');
      const team = replacementTeam(caller, ownerTeam(existing), body.team as string | undefined);
      const { [OWNER_TEAM_LABEL]: _old, ...labels } = existing.metadata.labels ?? {};
      const cr = await deps.store.replace<HibernationSchedule>('HibernationSchedule', stateRef(deps, name), {
        ...existing,
        metadata: { ...existing.metadata, labels: { ...labels, ...ownerLabels(team) } },
        spec,
      });
      deps.log.info({ schedule: name, team }, 'schedule replaced');
      return view(cr);
    },

    async remove(name: string, caller: Caller): Promise<void> {
      await fetchFor(name, caller, 'admin', 'deleting a schedule');
      await deps.store.delete('HibernationSchedule', stateRef(deps, name));
      deps.log.info({ schedule: name }, 'schedule deleted');
    },

    async preview(name: string, caller: Caller, query: PreviewQuery = {}): Promise<SchedulePreview> {
      return previewSchedule(deps, await fetch(name, caller), query);
    },

    /**
     * Apply the state the schedule says now to its clusters (or with dryRun, report what would happen). A run
     * cannot be written up front: its Operation is the intent, and the resync queues its sweep again if Redis
     * loses it (the plan is in the payload, so the sweep is the same).
     */
    async run(name: string, caller: Caller, opts: { dryRun?: boolean; requester?: Requester }): Promise<JobView> {
      const cr = await fetchFor(name, caller, 'admin', 'running a schedule');
      const now = deps.clock.now();
      const desired = compile(cr).desiredState(now);
      const payload: SweepPayload = {
        schedule: name,
        edgeAt: new Date(now).toISOString(),
        action: desired.state === 'Hibernating' ? 'hibernate' : 'resume',
        reason: `manual run: ${desired.reason}`,
        mode: 'manual',
        dryRun: Boolean(opts.dryRun),
      };
      return deps.operations.accept({
        ...jobOf(RUN_JOB, payload),
        target: targetOf('HibernationSchedule', stateRef(deps, name), cr.metadata.uid),
        hub: deps.stateHub,
        ...(opts.requester ? { requester: opts.requester } : {}),
      });
    },

    clusterSchedule(
      hub: string,
      namespace: string,
      name: string,
      caller: Caller,
      query: PreviewQuery = {},
    ): ClusterScheduleView {
      return clusterSchedule(deps, hub, cluster(hub, namespace, name, caller), query);
    },

    listOverrides(hub: string, namespace: string, name: string, caller: Caller): OverrideView[] {
      const cd = cluster(hub, namespace, name, caller);
      return overrideViews(deps, governance(deps, listSchedules(deps), hub, cd).schedule, hub, cd);
    },

    /** `mark`: the request's Idempotency-Key, recorded on the override. */
    async createOverride(
      hub: string,
      namespace: string,
      name: string,
      body: OverrideRequest,
      caller: Caller,
      mark?: IdempotencyMark,
    ): Promise<OverrideView> {
      const cd = cluster(hub, namespace, name, caller, 'operator', 'overriding the schedule of this cluster');
      const now = deps.clock.now();
      const { untilMs } = parseOverrideRequest(body, now, parseGoDuration);
      const saved = await saveOverride(deps, { hub, namespace, name }, body, now, untilMs, mark);
      deps.log.info(
        { hub, namespace, name, override: saved.metadata.name, type: body.type, by: body.by, until: saved.spec.until },
        'override created',
      );
      await deps.store.recordEvent(
        'ClusterDeployment',
        { hub, namespace, name },
        {
          type: 'Normal',
          reason: 'ScheduleOverride',
          action: 'Override',
          message: `${body.type} by ${body.by}${saved.spec.until ? ` until ${saved.spec.until}` : ''}: ${body.reason}`,
        },
      );
      const views = overrideViews(deps, governance(deps, listSchedules(deps), hub, cd).schedule, hub, cd);
      return (
        views.find((v) => v.name === saved.metadata.name) ?? {
          name: saved.metadata.name,
          type: body.type,
          by: body.by,
          reason: body.reason,
          phase: 'Active',
          ...(saved.spec.until ? { until: saved.spec.until } : {}),
        }
      );
    },

    async deleteOverrides(
      hub: string,
      namespace: string,
      name: string,
      caller: Caller,
      type?: OverrideType,
    ): Promise<string[]> {
      cluster(hub, namespace, name, caller, 'operator', 'removing overrides of this cluster');
      const removed = await deleteOverrides(deps, { hub, namespace, name }, type);
      deps.log.info({ hub, namespace, name, removed }, 'overrides deleted');
      return removed;
    },

    jobs: (): JobRegistration[] => [...sweepJobs(deps), reconcileClusterJob(deps)],
  };
}
