// Payloads are checked against their type's schema where they enter Redis and where they leave it, and a worker
// does not start while a catalogued type has no handler.
import { Type as T } from 'typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { defineJob, handleJob } from '../../src/services/job-definition.js';
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

  it('enqueueing a payload that does not fit its schema throws, naming the field', async () => {
    h = await createHarness({ definitions: [GREET] });
    await expect(h.queue.enqueue(GREET.type, { name: 7 })).rejects.toThrow(
      /test.greet payload does not fit its schema: \/name must be string/,
    );
    expect((await h.queue.enqueue(GREET.type, { name: 'bee' })).state).toBe('waiting');
  });

  it('a payload Redis kept that no longer fits fails its job at once, with the reason, and is never retried', async () => {
    h = await createHarness({ catalog: { [GREET.type]: { attempts: 3, backoffMs: 10 } } });
    const bad = await h.queue.enqueue(GREET.type, { name: 'bee', times: 'twice' });
    const good = await h.queue.enqueue(GREET.type, { name: 'bee' });
    await h.startWorkers({ [greet.job.type]: greet.handle }, { definitions: [GREET] });
    expect(await h.queue.waitUntilDone(good.id, 10_000)).toMatchObject({ state: 'completed', result: 'hello bee' });
    const failed = await h.queue.waitUntilDone(bad.id, 10_000);
    expect(failed).toMatchObject({ state: 'failed', attempts: 1, error: { reason: 'Invalid' } });
    expect(failed.error?.message).toMatch(/\/times must be integer/);
  });
});
