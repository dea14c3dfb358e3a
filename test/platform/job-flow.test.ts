// The parent side of child jobs, against a stand-in for one BullMQ job and its queues: what a run adds, and what it
// reads back, when the job's Redis state is whatever a crashed or earlier run left (states that real Redis reaches
// only by killing a worker at an exact instruction).
import { describe, expect, it } from 'vitest';
import { flowContext, type FlowDeps } from '../../src/jobs/job-flow.js';
import type { JobData } from '../../src/jobs/job-view.js';
import { WAIT_FOR_CHILDREN } from '../../src/services/ports.js';
import { testJob } from './support.js';

// The stand-ins' types, named without importing bullmq (only src/jobs does).
type Job = Parameters<typeof flowContext>[0];
type Queue = ReturnType<FlowDeps['queueFor']>;
type JobsOptions = { jobId?: string } & Record<string, unknown>;

interface Deps {
  processed?: Record<string, unknown>;
  ignored?: Record<string, string>;
  unprocessed?: string[];
}

function fakeJob(id: string, data: JobData, deps: Deps, pending: boolean) {
  const job = {
    id,
    data,
    queueQualifiedName: '{p}:ops-one',
    async updateData(d: JobData) {
      job.data = d;
    },
    async getDependencies() {
      return deps;
    },
    async moveToWaitingChildren() {
      return pending;
    },
  };
  return job;
}

function fakeQueues() {
  const added: Array<{ hub: string; id: string; opts: JobsOptions }> = [];
  const queueFor = (hub: string) =>
    ({
      async addBulk(jobs: Array<{ opts: JobsOptions }>) {
        for (const j of jobs) added.push({ hub, id: j.opts.jobId!, opts: j.opts });
      },
    }) as unknown as Queue;
  return { added, queueFor };
}

const key = (hub: string, id: string) => `{p}:ops-${hub}:${id}`;
const children = ['a', 'b', 'c'].map((k) => ({ key: k, ...testJob('t.child', { k }), hub: 'two' }));

describe('a parent job fanning out', () => {
  it('after a crash while adding, adds only the children not yet linked (one that ended and left the history included)', async () => {
    const parent = 'one.p1';
    // a ended (its record may be gone; its value stays with the parent), b is still waiting, c was never added.
    const job = fakeJob(
      parent,
      { payload: {} },
      { processed: { [key('two', `two.${parent}.a`)]: { ok: 1 } }, unprocessed: [key('two', `two.${parent}.b`)] },
      true,
    );
    const q = fakeQueues();
    const steps: string[] = [];
    const flow = flowContext(job as unknown as Job, 'token', {
      queueFor: q.queueFor,
      options: () => ({ attempts: 2 }),
      step: async (s) => void steps.push(s),
    });
    expect(await flow.waitForChildren(children)).toBe(WAIT_FOR_CHILDREN);
    expect(q.added.map((a) => a.id)).toEqual([`two.${parent}.c`]);
    expect(q.added[0]!.opts).toMatchObject({
      attempts: 2,
      parent: { id: parent, queue: '{p}:ops-one' },
      ignoreDependencyOnFailure: true,
    });
    expect(job.data.childrenAdded).toBe(3);
    expect(steps).toEqual(['WaitingForChildren']);
  });

  it('on the run after its children ended, adds nothing and returns each outcome in order', async () => {
    const parent = 'one.p2';
    const job = fakeJob(
      parent,
      { payload: {}, childrenAdded: 3 },
      {
        processed: { [key('two', `two.${parent}.a`)]: { ok: 1 } },
        ignored: { [key('two', `two.${parent}.c`)]: 'c is refused' },
      },
      false,
    );
    const q = fakeQueues();
    const flow = flowContext(job as unknown as Job, 'token', {
      queueFor: q.queueFor,
      options: () => ({}),
      step: async () => undefined,
    });
    expect(await flow.waitForChildren(children)).toEqual([
      { key: 'a', id: `two.${parent}.a`, state: 'completed', result: { ok: 1 } },
      // b is in neither set: its job was removed (e.g. from the dashboard) before it ended.
      { key: 'b', id: `two.${parent}.b`, state: 'failed', error: 'the job was removed before it ended' },
      { key: 'c', id: `two.${parent}.c`, state: 'failed', error: 'c is refused' },
    ]);
    expect(q.added).toEqual([]);
  });

  it('keeps what `once` computed in the job, and computes it again only when nothing was kept', async () => {
    const job = fakeJob('one.p3', { payload: {} }, {}, false);
    const flow = flowContext(job as unknown as Job, 'token', {
      queueFor: fakeQueues().queueFor,
      options: () => ({}),
      step: async () => undefined,
    });
    let runs = 0;
    const plan = async () => ({ run: ++runs });
    expect(await flow.once('plan', plan)).toEqual({ run: 1 });
    expect(await flow.once('plan', plan)).toEqual({ run: 1 });
    // A later run reads the job afresh from Redis: the kept value is in its data.
    const again = flowContext(
      fakeJob('one.p3', JSON.parse(JSON.stringify(job.data)), {}, false) as unknown as Job,
      'token',
      {
        queueFor: fakeQueues().queueFor,
        options: () => ({}),
        step: async () => undefined,
      },
    );
    expect(await again.once('plan', plan)).toEqual({ run: 1 });
    expect(runs).toBe(1);
  });

  it('refuses two children with the same key', async () => {
    const flow = flowContext(fakeJob('one.p4', { payload: {} }, {}, true) as unknown as Job, 'token', {
      queueFor: fakeQueues().queueFor,
      options: () => ({}),
      step: async () => undefined,
    });
    await expect(flow.waitForChildren([children[0]!, children[0]!])).rejects.toMatchObject({ code: 'Invalid' });
  });
});
