// Drill (issue 11, "Proof": "a worker killed with SIGKILL mid-relocation and a restarted Beekeeper still complete
// it, each cluster moved once"): clusters created on east through the API, relocated to west in waves with a pause;
// while a wave is under way the worker is killed with SIGKILL and the api too, then both start again. The job's lock
// lapses (2 s here instead of 60 s), the new worker takes the job back and the relocation resumes from its status:
// it ends Succeeded, every cluster on west only, each created there once (a watch on west), one ClusterRelocate
// for the relocation ever (a watch on east), and it and the kubeconfig Secret gone at the end.
// Separate api and worker processes on a private Redis and a two-hub simulator (test/drills/harness.ts).
import { afterAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import { R } from '../../src/sim/client/index.js';
import { report, retryUntilSeen, scaled, startDrill, STATE_NS, tally, type Drill } from './harness.js';
import { CRASH_ENV } from './kill-drills.js';
import {
  clusterNames,
  FROM,
  leftovers,
  misplaced,
  relocate,
  relocationView,
  TO,
  untilRunning,
  untilTerminal,
  watchCreations,
} from './relocations.js';
import { mapLimit } from '../../src/map-limit.js';

/** 40 clusters full size, at least 8 (four waves: the kill lands with a wave behind it and one ahead). */
const N = scaled(40, 8);
const WAVE = scaled(10, 2);
const PAUSE_SECONDS = 2;
const b64 = (s: string) => Buffer.from(s).toString('base64');

let drill: Drill | undefined;
afterAll(async () => drill?.close());

describe(`drill: the worker killed mid-relocation of ${N} clusters in waves of ${WAVE}`, () => {
  it('a new worker and api finish it: Succeeded, each cluster moved once, one ClusterRelocate', async () => {
    drill = await startDrill({ hubs: [FROM, TO], roles: { scheduler: 0 }, env: CRASH_ENV });
    const d = drill;
    const east = d.kube(FROM);
    const names = clusterNames('rk', N);

    // Through the API, as users create them: install inputs in each namespace, then POST /v1/clusters.
    await east.create(R.clusterImageSet, {
      metadata: { name: 'openshift-v4.16.3' },
      spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64' },
    });
    await mapLimit(names, 8, async (ns) => {
      await east.create(R.namespace, { metadata: { name: ns } });
      await east.create(R.secret, {
        metadata: { name: 'aws-creds', namespace: ns },
        data: { aws_access_key_id: b64('x'), aws_secret_access_key: b64('y') },
      });
      await east.create(R.secret, {
        metadata: { name: 'pull-secret', namespace: ns },
        type: 'kubernetes.io/dockerconfigjson',
        data: { '.dockerconfigjson': b64('{"auths":{}}') },
      });
    });
    await mapLimit(names, 8, async (name) => {
      const res = await retryUntilSeen(() =>
        d.api<{ job: JobView }>('POST', '/v1/clusters', {
          hub: FROM,
          namespace: name,
          name,
          baseDomain: 'example.com',
          platform: { aws: { region: 'us-east-1', credentialsSecretRef: 'aws-creds' } },
          imageSet: 'openshift-v4.16.3',
          pullSecretRef: 'pull-secret',
        }),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(202);
    });
    await untilRunning(east, names);

    const copies = watchCreations(d.kube(TO), R.clusterDeployment);
    const relocates = watchCreations(east, R.clusterRelocate, STATE_NS);
    try {
      const started = Date.now();
      const id = await relocate(d, names, { size: WAVE, pauseSeconds: PAUSE_SECONDS });

      // Mid-relocation, with moves behind it and ahead: some clusters moved while others move (a wave partly done,
      // or a later wave under way), or, should the polls miss that, two waves done and the next waiting out its
      // pause; never finished.
      let atKill: Awaited<ReturnType<typeof relocationView>> | undefined;
      for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
        const view = await relocationView(d, id);
        expect(view.terminal, JSON.stringify(view)).toBe(false);
        const has = (s: string) => view.clusters.some((c) => c.state === s);
        if ((has('moving') && has('moved')) || view.waves.done >= 2) {
          atKill = view;
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(atKill, 'the relocation got under way within 60 s').toBeDefined();
      const worker = d.roles.find((r) => r.role === 'worker' && r.running())!;
      const api = d.roles.find((r) => r.role === 'api' && r.running())!;
      expect(await worker.kill('SIGKILL')).toMatchObject({ signal: 'SIGKILL' });
      const killedAfterMs = Date.now() - started;
      expect(await api.kill('SIGKILL')).toMatchObject({ signal: 'SIGKILL' });
      const count = (s: string) => atKill!.clusters.filter((c) => c.state === s).length;
      const at = `wave ${atKill!.waves.current ?? '-'} of ${atKill!.waves.total}, ${atKill!.waves.done} done; clusters moved ${count('moved')}, moving ${count('moving')}, verifying ${count('verifying')}, pending ${count('pending')}`;

      await Promise.all([d.start('api'), d.start('worker')]);
      const restarted = Date.now();
      const end = await untilTerminal(d, id, 180_000);
      const durationMs = Date.now() - started;
      const resumedMs = Date.now() - restarted;

      const out = await misplaced(d, names);
      const createdOnWest = names.map((n) => copies.uids(`${n}/${n}`).size);
      const relocateUids = relocates.keys().flatMap((k) => [...relocates.uids(k)]);
      const left = await leftovers(d, end);
      // The relocation's job, taken back by the new worker, ended completed (its link, as a user follows it).
      const job = await d.api<{ job: JobView }>('GET', end.links.job!);
      // One key per ClusterDeployment created on west: a cluster created twice is a duplicate, never one lost.
      report(
        'relocation-worker-kill',
        tally(
          names,
          names.flatMap((n, i) => Array<string>(createdOnWest[i]!).fill(n)),
        ),
      );
      console.log(
        `drill relocation-worker-kill: ${N} clusters in ${end.waves.total} waves of ${WAVE} (pause ${PAUSE_SECONDS} s): ` +
          `worker and api killed (SIGKILL) ${killedAfterMs} ms in, at ${at}; ${end.phase} ${durationMs} ms after the request, ` +
          `${resumedMs} ms after the new worker was up; ` +
          `moved ${end.progress.moved}/${N}; created on west once ${createdOnWest.filter((x) => x === 1).length}, ` +
          `more than once ${createdOnWest.filter((x) => x > 1).length}, never ${createdOnWest.filter((x) => x === 0).length}; ` +
          `ClusterRelocates ever ${relocateUids.length}; left behind ${JSON.stringify(left)}; job ${job.body.job?.state}`,
      );

      expect(end.phase, JSON.stringify(end.clusters.filter((c) => c.state !== 'moved'))).toBe('Succeeded');
      expect(end.clusters.filter((c) => c.state !== 'moved' || c.hub !== TO)).toEqual([]);
      expect(end.progress.moved).toBe(N);
      expect(out).toEqual([]);
      expect(createdOnWest).toEqual(names.map(() => 1));
      expect(relocateUids).toHaveLength(1);
      expect(relocates.keys()).toEqual([`${STATE_NS}/relocation-${id}`]);
      expect(left).toEqual([]);
      expect(job.status, JSON.stringify(job.body)).toBe(200);
      expect(job.body.job).toMatchObject({ id: end.job, state: 'completed' });
    } finally {
      copies.stop();
      relocates.stop();
    }
  }, 300_000);
});
