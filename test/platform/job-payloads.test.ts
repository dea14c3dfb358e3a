// Payloads are checked against their type's schema where they enter Redis and where they leave it, and a worker
// does not start while a catalogued type has no handler.
import { Type as T } from 'typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { defineJob, handleJob, jobOf, keptJob } from '../../src/services/job-definition.js';
import { createHarness, type Harness } from './support.js';

const GREET = defineJob({
  type: 'test.greet',
  payload: T.Object({ name: T.String(), times: T.Optional(T.Integer()) }),
});
const OTHER = defineJob({ type: 'test.other', payload: T.Object({}) });
const greet = handleJob(GREET, async (p) => `hello ${p.name}`);

describe('job payloads', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a worker does not start while a catalogued type has no handler, and says which', async () => {
    h = await createHarness();
    await expect(h.startWorkers({ [greet.job.type]: greet.handle }, { definitions: [GREET, OTHER] })).rejects.toThrow(
      'no handler for the catalogued job types test.other',
    );
  });

  it('a bare type string is not a job: only a job definition and its payload, or a kept job, can be enqueued', () => {
    // Never run: the compiler is the test (test/typecheck.test.ts runs it over this file).
    const typed = (queue: Harness['queue']) => [
      // @ts-expect-error a type string and a payload are not a job
      queue.enqueue(GREET.type, { name: 'bee' }),
      // @ts-expect-error nor is a look-alike object: only jobOf and keptJob make one
      queue.enqueue({ type: GREET.type, payload: { name: 'bee' } }),
      // @ts-expect-error the payload must fit the job's schema
      queue.enqueue(jobOf(GREET, { name: 'bee', times: 'twice' })),
      // @ts-expect-error and hold every required field
      queue.enqueue(jobOf(GREET, {})),
      queue.enqueue(jobOf(GREET, { name: 'bee', times: 2 })),
    ];
    expect(typed).toBeTypeOf('function');
  });

  it('enqueueing a payload that does not fit its schema throws, naming the field', async () => {
    h = await createHarness({ definitions: [GREET] });
    // The compiler refuses it first: a producer's payload is typed by its job's schema.
    // @ts-expect-error a name is a string
    const misfit = jobOf(GREET, { name: 7 });
    await expect(h.queue.enqueue(misfit)).rejects.toThrow(
      /test.greet payload does not fit its schema: \/name must be string/,
    );
    expect((await h.queue.enqueue(jobOf(GREET, { name: 'bee' }))).state).toBe('waiting');
  });

  it('a payload Redis kept that no longer fits fails its job at once, with the reason, and is never retried', async () => {
    h = await createHarness({ catalog: { [GREET.type]: { attempts: 3, backoffMs: 10 } } });
    // Written by another version (the harness checks no payload here, as a queue of that version would not).
    const bad = await h.queue.enqueue(keptJob(GREET.type, { name: 'bee', times: 'twice' }));
    const good = await h.queue.enqueue(jobOf(GREET, { name: 'bee' }));
    await h.startWorkers({ [greet.job.type]: greet.handle }, { definitions: [GREET] });
    expect(await h.queue.waitUntilDone(good.id, 10_000)).toMatchObject({ state: 'completed', result: 'hello bee' });
    const failed = await h.queue.waitUntilDone(bad.id, 10_000);
    expect(failed).toMatchObject({ state: 'failed', attempts: 1, error: { reason: 'Invalid' } });
    expect(failed.error?.message).toMatch(/\/times must be integer/);
  });
});
