// What the relocation job's tests (relocation-run, relocation-abort) do to a two-hub bed: install a cluster on east,
// write a Relocation as POST /v1/relocations would, enqueue its job or run its handler in the test, read it back.
import { expect } from 'vitest';
import type { RelocationCluster, RelocationSpec } from '../../src/hive/resources/relocation.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { createLogger } from '../../src/logger.js';
import type { JobView } from '../../src/services/ports.js';
import { jobOf } from '../../src/services/job-definition.js';
import { RELOCATION_RUN_JOB } from '../../src/services/relocations/relocation-jobs.js';
import type { Preflight } from '../../src/services/relocations/preflight-report.js';
import {
  runRelocation,
  type Relocation,
  type RelocationRunDeps,
} from '../../src/services/relocations/relocation-run.js';
import { exportKubeconfig } from '../../src/kube/export-kubeconfig.js';
import { EAST, WEST, createBody, prerequisites, type TwoHubBed } from './support.js';

export const RELOCATE = 'hive.openshift.io/relocate';

/** Helpers on the bed `bedOf` returns once the file's beforeAll has started it. */
export function runKit(bedOf: () => TwoHubBed) {
  const ns = () => bedOf().config.stateNamespace;
  const cd = (hub: string, namespace: string, name = namespace) =>
    bedOf().system.store.get<ClusterDeployment>('ClusterDeployment', { hub, namespace, name });
  const relRef = (id: string) => ({ hub: EAST, namespace: ns(), name: id });

  async function install(namespace: string, extra: Record<string, unknown> = {}) {
    await prerequisites(bedOf(), EAST, namespace);
    const res = await bedOf().app.inject({
      method: 'POST',
      url: '/v1/clusters?wait=60',
      payload: createBody(EAST, namespace, namespace, extra),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ job: JobView }>().job.state).toBe('completed');
  }

  /** The Relocation as POST /v1/relocations writes it: spec, then status seeded with the waves. */
  async function createRelocation(id: string, names: string[], waves: RelocationSpec['waves'] = {}) {
    const size = waves.size ?? names.length;
    const clusters: RelocationCluster[] = names.map((n, i) => ({
      namespace: n,
      name: n,
      wave: Math.floor(i / size) + 1,
      state: 'pending',
      hub: EAST,
    }));
    await bedOf().system.store.create<Relocation>('Relocation', EAST, {
      apiVersion: 'beekeeper.io/v1beta1',
      kind: 'Relocation',
      metadata: { name: id, namespace: ns() },
      spec: {
        from: EAST,
        to: WEST,
        clusters: names.map((n) => ({ namespace: n, name: n })),
        waves,
        requestedBy: 'test',
        requestedAt: new Date(bedOf().clock.now()).toISOString(),
      },
    });
    await bedOf().system.store.mergePatch(
      'Relocation',
      relRef(id),
      { status: { phase: 'Pending', clusters, waves: { total: Math.max(...clusters.map((c) => c.wave)), done: 0 } } },
      { subresource: 'status' },
    );
  }

  const enqueue = (id: string) =>
    bedOf().system.queue.enqueue(jobOf(RELOCATION_RUN_JOB, { id }), {
      hub: EAST,
      target: { kind: 'Relocation', hub: EAST, namespace: ns(), name: id },
    });
  const allOk: Preflight = async (_spec, clusters) => ({
    clusters: clusters.map((c) => ({ ...c, ok: true, checks: [] })),
    imageSetsToCopy: [],
    warnings: [],
  });
  /** The job's handler run in the test, with its dependencies chosen here. */
  const runDirect = (id: string, opts: Partial<RelocationRunDeps> = {}, signal = new AbortController().signal) =>
    runRelocation(
      {
        store: bedOf().system.store,
        clock: bedOf().clock,
        log: createLogger({ level: 'silent' }),
        stateHub: EAST,
        stateNamespace: ns(),
        preflight: allOk,
        kubeconfigFor: (hub) => exportKubeconfig(bedOf().config.hubs.find((h) => h.name === hub)!),
        clusterTimeoutMs: 60_000,
        pollMs: 500,
        ...opts,
      },
      id,
      { step: async () => undefined, signal },
    );
  const relocation = async (id: string) => (await bedOf().system.store.get<Relocation>('Relocation', relRef(id)))!;

  return { cd, relRef, install, createRelocation, enqueue, allOk, runDirect, relocation };
}
