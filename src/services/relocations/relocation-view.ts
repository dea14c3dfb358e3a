// A Relocation as the API shows it: what was asked, where each cluster is, overall progress, waves, an ETA and
// links to its job and streams. Built from the resource alone (the informer cache), so every replica agrees.
import { etaOf, isTerminal, progressOf } from '../../hive/relocation/plan.js';
import type { RelocationSpec } from '../../hive/resources/relocation.js';
import type { RelocationView } from '../../hive/resources/relocation-view.js';
import type { KubeObject } from '../ports.js';
import type { RelocationObject } from './preflight.js';
import { ownerTeam } from '../team-scope.js';

/** The Operation (and so the job id) that runs the relocation, recorded when it is created. */
export const JOB_ANNOTATION = 'beekeeper.io/job';

export type { RelocationView };

export function relocationView(obj: RelocationObject, nowMs: number): RelocationView {
  const spec: RelocationSpec = obj.spec;
  const status = obj.status ?? {};
  const id = obj.metadata.name;
  const phase = status.phase ?? 'Pending';
  const job = obj.metadata.annotations?.[JOB_ANNOTATION];
  const self = `/v1/relocations/${encodeURIComponent(id)}`;
  const eta = etaOf(status, nowMs);
  const team = ownerTeam(obj);
  return {
    id,
    from: spec.from,
    to: spec.to,
    ...(team ? { team } : {}),
    phase,
    terminal: isTerminal(phase),
    ...(spec.requestedBy ? { requestedBy: spec.requestedBy } : {}),
    requestedAt: spec.requestedAt,
    request: {
      ...(spec.clusters ? { clusters: spec.clusters } : {}),
      ...(spec.selector ? { selector: spec.selector } : {}),
    },
    skipFailed: spec.skipFailed === true,
    waves: {
      ...(spec.waves?.size !== undefined ? { size: spec.waves.size } : {}),
      ...(spec.waves?.pauseSeconds !== undefined ? { pauseSeconds: spec.waves.pauseSeconds } : {}),
      total: status.waves?.total ?? 0,
      done: status.waves?.done ?? 0,
      ...(status.waves?.current !== undefined ? { current: status.waves.current } : {}),
    },
    progress: progressOf(status.clusters),
    ...(eta ? { eta } : {}),
    ...(status.startedAt ? { startedAt: status.startedAt } : {}),
    ...(status.finishedAt ? { finishedAt: status.finishedAt } : {}),
    ...(status.message ? { message: status.message } : {}),
    warnings: status.warnings ?? [],
    imageSetsCopied: status.imageSetsCopied ?? [],
    ...(spec.abort ? { abort: spec.abort } : {}),
    clusters: status.clusters ?? [],
    ...(job ? { job } : {}),
    links: {
      self,
      events: `${self}/events`,
      abort: `${self}/abort`,
      ...(job ? { job: `/v1/jobs/${encodeURIComponent(job)}` } : {}),
    },
  };
}

export const isRelocation = (o: KubeObject): o is RelocationObject =>
  typeof (o as RelocationObject).spec?.from === 'string';
