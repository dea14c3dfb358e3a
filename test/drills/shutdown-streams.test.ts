// Drill (issue 10, "Streams and shutdown"): an api process is sent SIGTERM while callers follow a claim and a job,
// by Server-Sent Events and by `?wait` long polls. It must exit within seconds (with one claim stream open it ran
// past 85 s, so on Kubernetes the pod was killed), and every stream and poll must end cleanly: the streams close
// their chunked body (no reset), the polls answer with the thing as it is. No worker runs, so the job never ends
// and the claim (from an empty pool) stays Pending: only the shutdown can end them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { R } from '../../src/sim/client/index.js';
import { adoptClusters } from './clusters.js';
import { startDrill, until, type Drill, type RoleProcess } from './harness.js';

const NS = 'team';
let drill: Drill;
let api: RoleProcess;

beforeAll(async () => {
  drill = await startDrill({ roles: { worker: 0, scheduler: 0 } });
  api = drill.roles.find((r) => r.role === 'api')!;
  await adoptClusters(drill.kube(), NS, ['c1']);
  await drill.kube().create(R.clusterPool, {
    metadata: { name: 'empty', namespace: NS },
    spec: {
      size: 0,
      baseDomain: 'example.com',
      imageSetRef: { name: 'openshift-v4.16.3' },
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
    },
  });
  await until('the api sees the cluster and the pool', async () => {
    const [c, p] = await Promise.all([
      drill.api('GET', `/v1/clusters/east/${NS}/c1`),
      drill.api('GET', `/v1/pools/east/${NS}/empty`),
    ]);
    return c.status === 200 && p.status === 200;
  });
}, 120_000);

afterAll(async () => {
  await drill?.close();
});

/** An open event stream: its messages as they arrive, and how its body ended ('clean' or the read error). */
async function follow(url: string) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const messages: Array<{ event: string; data: any }> = [];
  let first!: () => void;
  const firstMessage = new Promise<void>((r) => (first = r));
  const ended = (async () => {
    let buffer = '';
    try {
      for await (const chunk of res.body!) {
        buffer += Buffer.from(chunk).toString();
        const frames = buffer.split('\n\n');
        buffer = frames.pop()!;
        for (const f of frames.filter((f) => f.startsWith('event: '))) {
          messages.push({ event: f.slice(7, f.indexOf('\n')), data: JSON.parse(f.slice(f.indexOf('data: ') + 6)) });
          first();
        }
      }
      return 'clean';
    } catch (err) {
      return String((err as Error).cause ?? err);
    }
  })();
  await firstMessage;
  return { messages, ended };
}

describe('SIGTERM with streams and long polls open', () => {
  it('the api exits within seconds, ending every stream and answering every poll', async () => {
    const hibernate = await drill.api('POST', `/v1/clusters/east/${NS}/c1/hibernate`);
    expect(hibernate.status, JSON.stringify(hibernate.body)).toBe(202);
    const jobId: string = hibernate.body.job.id;
    const claim = await drill.api('POST', '/v1/claims', { pool: `east/${NS}/empty`, name: 'waiting' });
    expect(claim.status, JSON.stringify(claim.body)).toBe(201);
    expect(claim.body.phase).toBe('Pending');
    const claimPath = `/v1/claims/${claim.body.id}`;

    // Long polls first, then the streams: by the time the streams have said something, the polls wait.
    const jobPoll = fetch(`${api.url}/v1/jobs/${encodeURIComponent(jobId)}?wait=3600`);
    const claimPoll = fetch(`${api.url}${claimPath}?wait=3600`);
    const claimStream = await follow(`${api.url}${claimPath}/events`);
    const jobStream = await follow(`${api.url}/v1/jobs/${encodeURIComponent(jobId)}/events`);
    expect((await drill.api('GET', `/v1/jobs/${encodeURIComponent(jobId)}`)).body.job.state).not.toMatch(
      /completed|failed/,
    );

    const started = Date.now();
    const exit = await Promise.race([
      api.kill('SIGTERM'),
      new Promise((r) => setTimeout(() => r('still running after 10 s'), 10_000).unref()),
    ]);
    const seconds = (Date.now() - started) / 1000;
    expect(exit, api.tail()).toEqual({ code: 0, signal: null });
    expect(seconds).toBeLessThan(5);

    expect(await claimStream.ended).toBe('clean');
    // One `claim` frame per change of the claim: Hive may still be adding its Pending condition when the stream
    // opens, so one or more; never an error frame, and the last one is the claim still pending.
    expect(new Set(claimStream.messages.map((m) => m.event))).toEqual(new Set(['claim']));
    expect(claimStream.messages.at(-1)?.data.phase).toBe('Pending');
    expect(await jobStream.ended).toBe('clean');
    // A job stream ends with the job as it is at shutdown; the client reconnects to another replica.
    expect(jobStream.messages.at(-1)).toMatchObject({ event: 'job', data: { id: jobId } });

    const [jobAnswer, claimAnswer] = await Promise.all([jobPoll, claimPoll]);
    expect(jobAnswer.status).toBe(200);
    expect(((await jobAnswer.json()) as { job: unknown }).job).toMatchObject({ id: jobId });
    expect(claimAnswer.status).toBe(200);
    expect(await claimAnswer.json()).toMatchObject({ id: claim.body.id, phase: 'Pending' });
  });
});
