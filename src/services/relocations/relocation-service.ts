// The relocation API's use case: check a request, resolve its clusters, run preflight, and (unless it is a dry run
// or a cluster fails without skipFailed) record the Relocation with its plan and accept its relocation.run job
// through an Operation, so the work is durable in Kubernetes before the answer. Reads come from informer caches.
import { randomBytes } from 'node:crypto';
import { Conflict, Forbidden, Invalid, NotFound, Unavailable } from '../../hive/errors.js';
import { isDnsLabel } from '../../hive/names.js';
import { isTerminal, seedStatus } from '../../hive/relocation/plan.js';
import { BEEKEEPER_API_VERSION } from '../../hive/resources/crd.js';
import type { RelocationPhase, RelocationSpec } from '../../hive/resources/relocation.js';
import { markAnnotations } from '../idempotency/mark.js';
import { jobOf } from '../job-definition.js';
import type { Operations } from '../operations/operations.js';
import { targetOf, type Requester } from '../operations/operation.js';
import type { Clock, HiveStore, ObjectRef, ServiceLog, StateLocation } from '../ports.js';
import { createPreflight, type RelocationObject, type RelocationPreflight } from './preflight.js';
import { FROM_LABEL, TO_LABEL, type RelocationRequest, type CreateOutcome } from './relocation-request.js';
import { RELOCATION_RUN_JOB } from './relocation-jobs.js';
import { isRelocation, JOB_ANNOTATION, relocationView, type RelocationView } from './relocation-view.js';
import { selectClusters, specIssues } from './select-clusters.js';
import type { Caller } from '../../auth/caller.js';
import type { ClusterDeployment } from '../../hive/types.js';
import {
  clusterTeamOf,
  creationTeam,
  ownerLabels,
  ownerTeam,
  requireRole,
  sees,
  type TeamScope,
} from '../team-scope.js';

export interface RelocationServiceDeps extends StateLocation, TeamScope {
  store: HiveStore;
  operations: Operations;
  clock: Clock;
  log: ServiceLog;
  /** Default: the informer-backed preflight (preflight.ts). */
  preflight?: RelocationPreflight;
}

export function createRelocationService(deps: RelocationServiceDeps) {
  const { store, clock } = deps;
  const preflight = deps.preflight ?? createPreflight(deps);
  const refOf = (id: string): ObjectRef => ({ hub: deps.stateHub, namespace: deps.stateNamespace, name: id });
  const now = () => clock.now();

  /** From the cache, else a live read: a Relocation created a moment ago may not be cached yet. */
  async function read(id: string): Promise<RelocationObject> {
    // A Relocation's id is a DNS label.
    if (!isDnsLabel(id)) throw new NotFound(`relocation ${id} not found`);
    const found =
      store.cached<RelocationObject>('Relocation', refOf(id)) ??
      (await store.get<RelocationObject>('Relocation', refOf(id)));
    if (!found) throw new NotFound(`relocation ${id} not found`);
    return found;
  }

  /** As the caller may see it: another team's (or no team's, for a non-admin) answers as a missing one. */
  async function load(id: string, caller: Caller): Promise<RelocationObject> {
    const found = await read(id);
    if (!sees(caller, ownerTeam(found))) throw new NotFound(`relocation ${id} not found`);
    return found;
  }

  /** The team of a cluster on the source hub: from the cache, or its namespace's for one not there. */
  const teamOn = (hub: string, c: { namespace: string; name: string }) => {
    const cd = store.cached<ClusterDeployment>('ClusterDeployment', { hub, ...c });
    return cd ? clusterTeamOf(deps, hub, cd) : deps.teams?.namespaceTeam(hub, c.namespace);
  };

  /**
   * A team's relocation moves its own clusters only: a listed cluster of another team (or of none) is refused
   * naming it, before anything says whether it exists; a selector selects among the team's clusters only.
   */
  function scopedSelection(spec: RelocationSpec, team: string | undefined) {
    if (team === undefined) return selectClusters(store, spec);
    spec.clusters?.forEach((c, i) => {
      if (teamOn(spec.from, c) !== team)
        throw new Forbidden(
          `clusters[${i}]: ${c.namespace}/${c.name} is not a cluster of team ${team}: a relocation of team ${team} ` +
            'moves only its clusters',
        );
    });
    return selectClusters(store, spec, (cd) => clusterTeamOf(deps, spec.from, cd) === team);
  }

  async function create(req: RelocationRequest, requester: Requester, caller: Caller): Promise<CreateOutcome> {
    // Who may relocate comes first: a caller without the role learns nothing from the request's checks.
    const team = creationTeam(caller, req.team, 'admin', 'relocating clusters');
    const issues = specIssues(req, store.hubNames());
    if (issues.length) throw new Invalid('the relocation request is invalid', issues);
    const spec: RelocationSpec = {
      from: req.from,
      to: req.to,
      ...(req.clusters ? { clusters: req.clusters } : {}),
      ...(req.selector ? { selector: req.selector } : {}),
      ...(req.waves ? { waves: req.waves } : {}),
      ...(req.skipFailed !== undefined ? { skipFailed: req.skipFailed } : {}),
      ...((req.by ?? requester.by) ? { requestedBy: req.by ?? requester.by } : {}),
      requestedAt: new Date(now()).toISOString(),
    };
    const report = await preflight(spec, scopedSelection(spec, team), team !== undefined ? { team } : {});
    if (req.dryRun) return { kind: 'dryRun', report };
    const failing = report.clusters.filter((c) => !c.ok);
    if (failing.length === report.clusters.length)
      return { kind: 'refused', report, message: 'no cluster passes preflight: nothing would move' };
    if (failing.length && !spec.skipFailed)
      return {
        kind: 'refused',
        report,
        message:
          `${failing.length} of ${report.clusters.length} clusters fail preflight ` +
          `(${failing.map((c) => `${c.namespace}/${c.name}`).join(', ')}); nothing was created. ` +
          'Fix them, or pass skipFailed to move the others',
      };

    const id = `reloc-${randomBytes(5).toString('hex')}`;
    const ref = refOf(id);
    let created: RelocationObject | undefined;
    const job = await deps.operations.accept({
      ...jobOf(RELOCATION_RUN_JOB, { id }),
      target: targetOf('Relocation', ref),
      // The job works on the source hub (Hive's ClusterRelocate runs there): its queue, its slots.
      hub: spec.from,
      // The Idempotency-Key is recorded on the Relocation (its replay answers with the relocation and its job).
      ...(requester.by ? { requester: { by: requester.by } } : {}),
      write: async (op) => {
        const obj = await store.create<RelocationObject>('Relocation', deps.stateHub, {
          apiVersion: BEEKEEPER_API_VERSION,
          kind: 'Relocation',
          metadata: {
            name: id,
            namespace: deps.stateNamespace,
            labels: { [FROM_LABEL]: spec.from, [TO_LABEL]: spec.to, ...ownerLabels(team) },
            annotations: { [JOB_ANNOTATION]: op.metadata.name, ...markAnnotations(requester.idempotency) },
          },
          spec,
        });
        const status = seedStatus(report.clusters, {
          from: spec.from,
          ...(spec.waves?.size ? { size: spec.waves.size } : {}),
          warnings: report.warnings,
        });
        try {
          created = await store.mergePatch<RelocationObject>('Relocation', ref, { status }, { subresource: 'status' });
          await refuseOverlap(created);
        } catch (err) {
          await store
            .delete('Relocation', ref, obj.metadata.uid ? { uid: obj.metadata.uid } : {})
            .catch(() => undefined);
          throw err;
        }
      },
    });
    if (!created) throw new Unavailable('the relocation was not recorded; retry');
    const moving = created.status?.clusters?.filter((c) => c.state === 'pending').length ?? 0;
    void store.recordEvent('Relocation', ref, {
      type: 'Normal',
      reason: 'RelocationAccepted',
      action: 'Relocate',
      message:
        `${moving} of ${report.clusters.length} clusters to move from ${spec.from} to ${spec.to} in ` +
        `${created.status?.waves?.total ?? 1} wave(s)${spec.requestedBy ? `, requested by ${spec.requestedBy}` : ''}`,
      key: 'accepted',
    });
    deps.log.info(
      { relocation: id, from: spec.from, to: spec.to, clusters: moving, job: job.id },
      'relocation accepted',
    );
    return { kind: 'accepted', report, relocation: relocationView(created, now()), job };
  }

  /**
   * Two requests for the same cluster can both pass preflight (each reads a cache the other has not reached yet).
   * Each checks, once its own plan is written, the plans written before it, live: of two overlapping relocations
   * the later one always sees the earlier and steps back (both may; the caller retries), so a cluster is never in
   * two plans at once.
   */
  async function refuseOverlap(mine: RelocationObject): Promise<void> {
    const held = (r: RelocationObject) =>
      new Set(
        (r.status?.clusters ?? [])
          .filter((c) => c.state === 'pending' || c.state === 'moving' || c.state === 'verifying')
          .map((c) => `${c.namespace}/${c.name}`),
      );
    const ours = held(mine);
    const others = await store.list<RelocationObject>('Relocation', deps.stateHub, {
      namespace: deps.stateNamespace,
    });
    for (const other of others) {
      if (other.metadata.name === mine.metadata.name || other.spec.from !== mine.spec.from) continue;
      if (isTerminal(other.status?.phase)) continue;
      const both = [...held(other)].filter((c) => ours.has(c));
      if (both.length)
        throw new Conflict(
          `relocation ${other.metadata.name} also holds ${both.join(', ')} (asked for at the same time?); nothing ` +
            'was created: retry, and if that relocation is still there, wait for it to end or abort it',
        );
    }
  }

  /** The relocations the caller sees: its teams' (platform admins: all). */
  function list(caller: Caller, filter: { phase?: RelocationPhase } = {}): RelocationView[] {
    return store
      .cachedList<RelocationObject>('Relocation', { hub: deps.stateHub, namespace: deps.stateNamespace })
      .map((e) => e.object)
      .filter(isRelocation)
      .filter((o) => sees(caller, ownerTeam(o)))
      .map((o) => relocationView(o, now()))
      .filter((v) => !filter.phase || v.phase === filter.phase)
      .sort((a, b) => b.requestedAt.localeCompare(a.requestedAt) || b.id.localeCompare(a.id));
  }

  async function get(id: string, caller: Caller): Promise<RelocationView> {
    return relocationView(await load(id, caller), now());
  }

  /** The view once the relocation is terminal, or as it is after `seconds` (or when `signal` aborts). */
  async function waitTerminal(id: string, seconds: number, signal?: AbortSignal): Promise<RelocationView> {
    if (seconds > 0) {
      await store
        .waitFor<RelocationObject, true>(
          'Relocation',
          refOf(id),
          (o) => (!o || isTerminal(o.status?.phase) ? true : undefined),
          { timeoutMs: seconds * 1000, ...(signal ? { signal } : {}) },
        )
        .catch((err: unknown) => {
          if (!(err instanceof Unavailable)) throw err;
        });
    }
    return relocationView(await read(id), now());
  }

  /**
   * Sets spec.abort (once; a second abort keeps the first's time) on an unfinished relocation; the relocation job
   * stops further waves and aborts in-flight moves. A finished relocation answers Conflict.
   */
  async function abort(id: string, by: string | undefined, caller: Caller): Promise<RelocationView> {
    const obj = await load(id, caller);
    requireRole(caller, ownerTeam(obj), 'admin', 'aborting a relocation');
    const phase = obj.status?.phase;
    if (isTerminal(phase)) throw new Conflict(`relocation ${id} already ended (${phase}): there is nothing to abort`);
    if (obj.spec.abort) return relocationView(obj, now());
    const patched = await store.mergePatch<RelocationObject>(
      'Relocation',
      refOf(id),
      // Unconditional: the job writes status all the time, and an abort landing as the relocation ends is harmless.
      { spec: { abort: { requestedAt: new Date(now()).toISOString(), ...(by ? { by } : {}) } } },
    );
    deps.log.info({ relocation: id, by }, 'relocation abort requested');
    return relocationView(patched, now());
  }

  /** The view now (`first`, as `load` read it) and on every change; `onEnd` once it is terminal or gone. Returns the unsubscribe. */
  function watch(
    first: RelocationObject,
    listener: (view: RelocationView) => void,
    onEnd: (gone: boolean) => void,
  ): () => void {
    const id = first.metadata.name;
    let last = '';
    let ended = false;
    const emit = (obj: RelocationObject | undefined) => {
      if (ended) return;
      if (!obj) {
        ended = true;
        return onEnd(true);
      }
      const view = relocationView(obj, now());
      const key = JSON.stringify({ ...view, eta: undefined });
      if (key !== last) {
        last = key;
        listener(view);
      }
      if (view.terminal) {
        ended = true;
        onEnd(false);
      }
    };
    const off = store.onChange<RelocationObject>('Relocation', (hub, type, obj) => {
      if (hub !== deps.stateHub || obj.metadata.namespace !== deps.stateNamespace || obj.metadata.name !== id) return;
      emit(type === 'DELETED' ? undefined : obj);
    });
    // A relocation created a moment ago may not be cached yet: then start from what `load` read live.
    const cached = store.cached<RelocationObject>('Relocation', refOf(id));
    emit(cached ?? first);
    return off;
  }

  return { create, list, get, waitTerminal, abort, watch, load, preflight };
}

export type RelocationService = ReturnType<typeof createRelocationService>;
