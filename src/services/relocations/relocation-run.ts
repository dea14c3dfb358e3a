// The relocation.run job (issue 11): moves a Relocation's clusters wave by wave through Hive's ClusterRelocate
// (REFERENCE.md §6). It owns what it creates on the source hub (the kubeconfig Secret, the ClusterRelocate), copies
// the ClusterImageSets the destination lacks, re-runs preflight as each wave starts, follows and verifies each
// cluster, carries Beekeeper's state, and honours spec.abort between and during waves. Everything it decides is
// written to the Relocation's status before it moves on, so a retry or a re-enqueue after a crash resumes there.
import { randomUUID } from 'node:crypto';
import { Conflict, Forbidden, Invalid } from '../../hive/errors.js';
import { RELOCATION_LABEL, RELOCATION_ORIGIN_ANNOTATION } from '../../hive/relocation-marks.js';
import type { RelocationCluster, RelocationSpec, RelocationStatus } from '../../hive/resources/relocation.js';
import { handleJob, type JobRegistration } from '../job-definition.js';
import type { Clock, HiveStore, JobContext, KubeObject, ServiceLog, StateLocation } from '../ports.js';
import { abortMove, followMove, startMove } from './move-cluster.js';
import { verifyMove } from './verify-move.js';
import { now, waitFor, type MoveContext } from './move-context.js';
import type { Preflight } from './preflight-report.js';
import { NO_OBSERVER, type RelocationObserver } from './relocation-observer.js';
import { RELOCATION_RUN_JOB } from './relocation-jobs.js';
import { copyImageSets, deleteRelocateObjects, ensureRelocateObjects } from './relocation-setup.js';
import { etaOf, isFinal, statusWriter, waveSpan, wavesDone, wavesOf } from './relocation-status.js';

export interface Relocation extends KubeObject {
  spec: RelocationSpec;
  status?: RelocationStatus;
}

export interface RelocationRunDeps extends StateLocation {
  store: HiveStore;
  clock: Clock;
  log: ServiceLog;
  /** Run again for each wave's clusters as the wave starts (services/relocations/preflight.ts). */
  preflight: Preflight;
  /** A kubeconfig Hive on another hub can use to reach `hub` (credentials: never logged). */
  kubeconfigFor(hub: string): string | Promise<string>;
  /** How long one cluster may take in each wait for Hive (clock time); then it fails with reason Timeout. */
  clusterTimeoutMs?: number;
  /** The backstop poll of every wait (informer events wake it first). */
  pollMs?: number;
  /** Metrics (src/http/routes/relocation-metrics.ts). */
  observer?: RelocationObserver;
}

const DONE_PHASES = new Set(['Succeeded', 'Failed', 'Aborted']);
/** The run of the relocation job that owns the Relocation now: each run writes its own on start. A run whose job
 * Redis lost goes on in its worker while the resync queues the job again; once a newer run took over, the older one
 * stops before its next wave and before cleanup, so two runs never drive one relocation. */
export const RELOCATION_RUNNER_ANNOTATION = 'beekeeper.io/relocation-runner';

export function relocationRunJob(deps: RelocationRunDeps): JobRegistration {
  return handleJob(RELOCATION_RUN_JOB, async (payload, ctx) => {
    try {
      return await runRelocation(deps, payload.id, ctx);
    } catch (err) {
      // The job ends without a retry: say so on the Relocation, whose phase stays as it was (what is under way on
      // the hubs is as the clusters' states say), so that retrying the job resumes it.
      const final = ctx.finalAttempt || err instanceof Invalid || err instanceof Forbidden;
      if (final && !ctx.signal.aborted) {
        const message = `the relocation job stopped: ${err instanceof Error ? err.message : String(err)}; retry the job to resume`;
        await deps.store
          .mergePatch(
            'Relocation',
            { hub: deps.stateHub, namespace: deps.stateNamespace, name: payload.id },
            { status: { message } },
            { subresource: 'status' },
          )
          .catch(() => undefined);
      }
      throw err;
    }
  });
}

export async function runRelocation(deps: RelocationRunDeps, id: string, ctx: Pick<JobContext, 'step' | 'signal'>) {
  const { store } = deps;
  const ref = { hub: deps.stateHub, namespace: deps.stateNamespace, name: id };
  const rel = await store.get<Relocation>('Relocation', ref);
  if (!rel) return { id, outcome: 'the relocation is gone' };
  const observer = deps.observer ?? NO_OBSERVER;
  const status = statusWriter(store, ref, rel.status, (c) => observer.cluster(c));
  const summary = () => ({
    id,
    phase: status.status.phase,
    moved: status.clusters.filter((c) => c.state === 'moved').length,
    failed: status.clusters.filter((c) => c.state === 'failed').length,
    aborted: status.clusters.filter((c) => c.state === 'aborted').length,
  });
  if (DONE_PHASES.has(status.status.phase ?? '')) return summary();
  if (status.clusters.length === 0) throw new Invalid(`relocation ${id} has no clusters in its status`);
  const runner = randomUUID();
  await store.mergePatch('Relocation', ref, { metadata: { annotations: { [RELOCATION_RUNNER_ANNOTATION]: runner } } });
  const stillOurs = async () => {
    const current = await store.get<Relocation>('Relocation', ref);
    if (current?.metadata.annotations?.[RELOCATION_RUNNER_ANNOTATION] !== runner)
      throw new Conflict(`relocation ${id} is driven by a newer run of its job; this run stops`);
  };
  const { from, to } = rel.spec;
  const m: MoveContext = {
    store,
    clock: deps.clock,
    log: deps.log,
    state: deps,
    id,
    spec: rel.spec,
    from,
    to,
    status,
    timeoutMs: deps.clusterTimeoutMs ?? 30 * 60_000,
    pollMs: deps.pollMs ?? 5_000,
    signal: ctx.signal,
    aborted: () => Boolean(rel.spec.abort || store.cached<Relocation>('Relocation', ref)?.spec?.abort),
  };
  const clusters = status.clusters;
  const total = wavesOf(clusters);
  const pauseSeconds = rel.spec.waves?.pauseSeconds ?? 0;
  const progress = (current?: number) => ({
    waves: { total, done: wavesDone(clusters), ...(current !== undefined ? { current } : {}) },
  });
  if (!status.status.phase || status.status.phase === 'Pending') {
    await status.patch({ phase: 'Running', startedAt: now(m), ...progress() });
    observer.started();
  }

  if (status.status.phase === 'Running' && !m.aborted()) {
    const objects = await ensureRelocateObjects(store, {
      id,
      from,
      namespace: deps.stateNamespace,
      kubeconfig: () => deps.kubeconfigFor(to),
    });
    await status.patch(objects);
    const moving = clusters
      .filter((c) => !isFinal(c))
      .map((c) => ({ hub: from, namespace: c.namespace, name: c.name }));
    const copied = await copyImageSets(store, from, to, moving);
    if (copied.length > 0)
      await status.patch({ imageSetsCopied: [...new Set([...(status.status.imageSetsCopied ?? []), ...copied])] });

    for (let w = 1; w <= total && !m.aborted(); w++) {
      const wave = clusters.filter((c) => c.wave === w);
      if (wave.every(isFinal)) continue;
      if (!(await pauseBefore(m, w, pauseSeconds, ctx))) break;
      await stillOurs();
      await status.patch(progress(w));
      await ctx.step(`wave ${w}/${total}`, `${wave.length} cluster(s) from ${from} to ${to}`);
      await startWave(m, deps.preflight, wave);
      await Promise.all(
        wave.map(async (c) => {
          if (c.state === 'moving' && (await followMove(m, c)) !== 'copied') return;
          if (c.state === 'moving' || c.state === 'verifying') await verifyMove(m, c);
        }),
      );
      await status.patch({ ...progress(w), ...optional('eta', etaOf(clusters, deps.clock, pauseSeconds)) });
    }
  }

  await stillOurs();
  const aborting = m.aborted() || status.status.phase === 'Aborting';
  if (aborting) {
    await status.patch({ phase: 'Aborting' });
    await ctx.step('aborting', 'no further wave starts; moves in flight are called off');
    // Removing the match is how Hive aborts (§6): the label (abortMove) and the ClusterRelocate itself.
    await deleteRelocateObjects(store, from, { clusterRelocate: status.status.clusterRelocate });
    await Promise.all(
      clusters.map((c) =>
        c.state === 'moving' ? abortMove(m, c) : c.state === 'verifying' ? verifyMove(m, c) : Promise.resolve(),
      ),
    );
    for (const c of clusters.filter((x) => x.state === 'pending'))
      await status.cluster(c, {
        state: 'aborted',
        hub: from,
        message: 'not started: the relocation was aborted',
        finishedAt: now(m),
      });
  }

  await ctx.step('cleanup', 'removing the ClusterRelocate, the kubeconfig Secret and the labels');
  await deleteRelocateObjects(store, from, status.status);
  await removeLeftoverLabels(m);
  const failed = clusters.some((c) => c.state === 'failed' || (c.state === 'preflight-failed' && !rel.spec.skipFailed));
  const finishedAt = now(m);
  const phase = aborting ? 'Aborted' : failed ? 'Failed' : 'Succeeded';
  await status.patch({ phase, finishedAt, eta: finishedAt, ...progress() });
  observer.finished(phase);
  deps.log.info({ relocation: id, ...summary() }, 'relocation finished');
  return summary();
}

const optional = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;

/** Waits out spec.waves.pauseSeconds after the previous wave ended (from its clusters' times, so a restart resumes
 * the same pause). False when the relocation was aborted meanwhile. */
async function pauseBefore(m: MoveContext, wave: number, pauseSeconds: number, ctx: Pick<JobContext, 'step'>) {
  const started = m.status.clusters.some((c) => c.wave === wave && c.state !== 'pending');
  const previous = wave > 1 ? waveSpan(m.status.clusters, wave - 1) : undefined;
  if (started || pauseSeconds <= 0 || !previous) return true;
  const until = previous.end + pauseSeconds * 1000;
  if (m.clock.now() >= until) return true;
  await ctx.step('pause', `wave ${wave} starts at ${new Date(until).toISOString()}`);
  const outcome = await waitFor(
    m,
    () => (m.aborted() ? 'abort' : m.clock.now() >= until ? 'go' : undefined),
    until - m.clock.now() + m.pollMs,
  );
  return outcome !== 'abort' && !m.aborted();
}

/** Preflight again for the wave's clusters not started yet: one failing now is recorded, the others move. */
async function startWave(m: MoveContext, preflight: Preflight, wave: RelocationCluster[]) {
  const pending = wave.filter((c) => c.state === 'pending');
  if (pending.length > 0) {
    const report = await preflight(
      m.spec,
      pending.map((c) => ({ namespace: c.namespace, name: c.name })),
      { id: m.id },
    );
    for (const c of pending) {
      const found = report.clusters.find((r) => r.namespace === c.namespace && r.name === c.name);
      if (found && !found.ok) {
        const errors = found.checks.filter((k) => k.severity === 'error');
        await m.status.cluster(c, {
          state: 'preflight-failed',
          hub: m.from,
          reason: errors[0]?.check ?? 'preflight',
          message: errors.map((k) => k.message).join('; '),
          checks: found.checks,
          finishedAt: now(m),
        });
      } else {
        await m.status.cluster(c, { state: 'moving', hub: m.from, startedAt: now(m) });
      }
    }
  }
  // Labelled after the state says moving, so a run after a crash labels what it had decided to move.
  for (const c of wave.filter((x) => x.state === 'moving')) await startMove(m, c);
}

async function removeLeftoverLabels(m: MoveContext) {
  for (const hub of [m.from, m.to]) {
    const labelled = m.store.cachedList('ClusterDeployment', { hub, labelSelector: `${RELOCATION_LABEL}=${m.id}` });
    for (const { object } of labelled) {
      await m.store
        .mergePatch(
          'ClusterDeployment',
          { hub, namespace: object.metadata.namespace!, name: object.metadata.name },
          { metadata: { labels: { [RELOCATION_LABEL]: null }, annotations: { [RELOCATION_ORIGIN_ANNOTATION]: null } } },
        )
        .catch(() => undefined);
    }
  }
}
