import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import { createHarness, REDIS_URL, type Harness, testJob } from './support.js';

const fixture = fileURLToPath(new URL('./fixtures/crash-worker.ts', import.meta.url));

function startWorkerProcess(prefix: string, hang: boolean): Promise<ChildProcess> {
  // `node --import tsx` (not npx) so that the pid we kill is the worker itself.
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: { ...process.env, PREFIX: prefix, REDIS_URL: REDIS_URL(), HANG: hang ? '1' : '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited early with ${code}`)));
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
  });
}

describe('a worker process killed mid-job', () => {
  let h: Harness;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await h?.close();
  });

  it('leaves its job to another worker, which completes it exactly once', async () => {
    const first = await startWorkerProcess(h.config.redis.prefix, true);
    children.push(first);
    const job = await h.queue.enqueue(testJob('test.crashy', {}));
    const running = new Promise<JobView>((resolve) => {
      const stop = h.queue.watch(job.id, (v) => {
        if (v.state === 'active' && v.steps.length > 0) {
          stop();
          resolve(v);
        }
      });
    });
    expect((await running).steps[0]!.message).toBe(`pid ${first.pid}`);

    const died = new Promise((r) => first.once('exit', r));
    first.kill('SIGKILL');
    await died;

    const second = await startWorkerProcess(h.config.redis.prefix, false);
    children.push(second);
    const done = await h.queue.waitUntilDone(job.id, 20_000);
    expect(done).toMatchObject({ state: 'completed', result: { pid: second.pid } });
    expect(done.steps.map((s) => s.message)).toEqual([`pid ${first.pid}`, `pid ${second.pid}`]);
    expect(await h.producer.get(`${h.config.redis.prefix}:completions`)).toBe('1');
    second.kill('SIGTERM');
  });
});
