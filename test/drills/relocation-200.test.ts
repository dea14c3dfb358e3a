// Drill (issue 11, "Proof": "a relocation of 200 clusters in waves of 25 finishes, with its duration in your note"):
// 200 adopted, installed clusters on east, one namespace each, relocated to west through POST /v1/relocations in
// waves of 25 with no pause. It ends Succeeded, every cluster moved and on west only, each created there once (a
// watch on west), nothing of the relocation left on east; the line it prints has the count, waves and duration.
// Separate api and worker processes on a private Redis and a two-hub simulator (test/drills/harness.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { R } from '../../src/sim/client/index.js';
import { report, scaled, startDrill, tally, type Drill, fullSetOnly } from './harness.js';
import { QUICK_ENV } from './queued-hibernates.js';
import {
  adoptOnePerNamespace,
  clusterNames,
  FROM,
  leftovers,
  misplaced,
  relocate,
  TO,
  untilRunning,
  untilTerminal,
  watchCreations,
} from './relocations.js';

/** 200 clusters in waves of 25 full size; at least 40 in waves of 10 (several waves, each many clusters at once). */
const N = scaled(200, 40);
const WAVE = scaled(25, 10);

let drill: Drill | undefined;
describe(`drill: a relocation of ${N} clusters in waves of ${WAVE}`, fullSetOnly(), () => {
  afterAll(async () => drill?.close());

  it('finishes: Succeeded, every cluster moved once and on the destination only', async () => {
    drill = await startDrill({ hubs: [FROM, TO], roles: { scheduler: 0 }, env: QUICK_ENV });
    const d = drill;
    const east = d.kube(FROM);
    const names = clusterNames('r200', N);
    await adoptOnePerNamespace(east, names);
    await untilRunning(east, names);

    const copies = watchCreations(d.kube(TO), R.clusterDeployment);
    try {
      const started = Date.now();
      const id = await relocate(d, names, { size: WAVE });
      const accepted = Date.now() - started;
      const end = await untilTerminal(d, id, 600_000);
      const durationMs = Date.now() - started;

      const out = await misplaced(d, names);
      const createdOnWest = names.map((n) => copies.uids(`${n}/${n}`).size);
      const left = await leftovers(d, end);
      // One key per ClusterDeployment created on west: a cluster created twice is a duplicate, never one lost.
      report(
        'relocation-200',
        tally(
          names,
          names.flatMap((n, i) => Array<string>(createdOnWest[i]!).fill(n)),
        ),
      );
      console.log(
        `drill relocation-200: ${N} clusters in ${end.waves.total} waves of ${WAVE}, no pause: ${end.phase} ` +
          `${(durationMs / 1000).toFixed(1)} s after the request (answered 202 in ${accepted} ms with preflight), ` +
          `${(durationMs / 1000 / end.waves.total).toFixed(1)} s a wave; moved ${end.progress.moved}/${N}; ` +
          `created on west once ${createdOnWest.filter((x) => x === 1).length}; misplaced ${out.length}; ` +
          `left behind ${JSON.stringify(left)}`,
      );

      expect(end.phase, JSON.stringify(end.clusters.filter((c) => c.state !== 'moved').slice(0, 5))).toBe('Succeeded');
      expect(end.waves).toMatchObject({ total: Math.ceil(N / WAVE), done: Math.ceil(N / WAVE) });
      expect(end.clusters.filter((c) => c.state !== 'moved' || c.hub !== TO)).toEqual([]);
      expect(out).toEqual([]);
      expect(createdOnWest).toEqual(names.map(() => 1));
      expect(left).toEqual([]);
    } finally {
      copies.stop();
    }
  }, 900_000);
});
