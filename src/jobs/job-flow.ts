// Parent and child jobs for handlers (JobContext.once and waitForChildren), on BullMQ's own flow primitives (the
// "process step jobs" pattern): the parent adds its children with the `parent` option, each on its own hub's
// queue (same prefix, so BullMQ links them across queues), then moves itself to `waiting-children`, which frees
// its worker slot. When the last child ends BullMQ moves the parent back to `wait`, and the handler runs again
// from the top; what it computed before is kept in the job's data by `once`, so the second run is the same.
// Children use `ignoreDependencyOnFailure`: a child that fails for good is recorded in the parent's failed set with
// its reason and no longer holds the parent, instead of failing it (`failParentOnFailure`) or leaving it waiting.
import type { Job, JobsOptions, Queue } from 'bullmq';
import { invalid } from '../hive/errors.js';
import { WAIT_FOR_CHILDREN, type ChildJobSpec, type ChildOutcome, type JobContext } from '../services/ports.js';
import { jobIds } from '../services/job-ids.js';
import type { JobData } from './job-view.js';
import { assertNoSecrets } from './payload-guard.js';

/** Children added per round trip: big sweeps add thousands. */
const ADD_CHUNK = 500;

export interface FlowDeps {
  /** The queue of a configured hub (Invalid for any other name). */
  queueFor(hub: string): Queue;
  options(type: string): JobsOptions;
  step: JobContext['step'];
  /** Throws when a child's payload does not fit its type's schema (a programming error). */
  checkPayload?(type: string, payload: unknown): void;
}

type Flow = Required<Pick<JobContext, 'once' | 'waitForChildren'>>;

/** BullMQ names children by job key, `<prefix>:<queue>:<id>`; ids never hold `:`. */
const idOfKey = (key: string) => key.slice(key.lastIndexOf(':') + 1);

export function flowContext(job: Job<JobData>, token: string | undefined, deps: FlowDeps): Flow {
  const parentHub = jobIds.hubOf(job.id!)!;

  const plan = (children: ChildJobSpec[]) => {
    const seen = new Set<string>();
    return children.map((c) => {
      if (seen.has(c.key)) throw invalid('key', `child key ${JSON.stringify(c.key)} is given twice`);
      seen.add(c.key);
      const hub = c.hub ?? c.target?.hub ?? parentHub;
      return { spec: c, hub, id: jobIds.child(hub, job.id!, c.key) };
    });
  };

  async function addChildren(planned: ReturnType<typeof plan>) {
    // A run that crashed while adding left some children linked already (and some of those may have ended and
    // left the history): add only the others, or an ended child would be added, and run, a second time.
    const known = await job.getDependencies();
    const linked = new Set(
      [...Object.keys(known.processed ?? {}), ...Object.keys(known.ignored ?? {}), ...(known.unprocessed ?? [])].map(
        idOfKey,
      ),
    );
    // Every child is checked (hub, payload) before the first is added, so bad input adds none.
    const byHub = new Map<Queue, typeof planned>();
    for (const p of planned) {
      if (linked.has(p.id)) continue;
      assertNoSecrets(p.spec.payload);
      deps.checkPayload?.(p.spec.type, p.spec.payload);
      const queue = deps.queueFor(p.hub);
      const list = byHub.get(queue);
      if (list) list.push(p);
      else byHub.set(queue, [p]);
    }
    for (const [queue, list] of byHub) {
      for (let i = 0; i < list.length; i += ADD_CHUNK) {
        await queue.addBulk(
          list.slice(i, i + ADD_CHUNK).map((p) => ({
            name: p.spec.type,
            data: { payload: p.spec.payload, ...(p.spec.target ? { target: p.spec.target } : {}) } satisfies JobData,
            opts: {
              ...deps.options(p.spec.type),
              jobId: p.id,
              parent: { id: job.id!, queue: job.queueQualifiedName },
              ignoreDependencyOnFailure: true,
            },
          })),
        );
      }
    }
  }

  async function collect(planned: ReturnType<typeof plan>): Promise<ChildOutcome[]> {
    const ended = await job.getDependencies();
    const done = new Map(Object.entries(ended.processed ?? {}).map(([k, v]) => [idOfKey(k), v as unknown]));
    const failed = new Map(Object.entries(ended.ignored ?? {}).map(([k, v]) => [idOfKey(k), String(v)]));
    return planned.map(({ spec, id }): ChildOutcome => {
      if (done.has(id)) return { key: spec.key, id, state: 'completed', result: done.get(id) ?? null };
      // Not ended and no longer a dependency: someone removed the child's job (e.g. on the dashboard).
      return { key: spec.key, id, state: 'failed', error: failed.get(id) ?? 'the job was removed before it ended' };
    });
  }

  return {
    async once<T>(name: string, fn: () => Promise<T>): Promise<T> {
      const kept = job.data.memo?.[name];
      if (kept) return kept.value as T;
      const value = await fn();
      await job.updateData({ ...job.data, memo: { ...job.data.memo, [name]: { value } } });
      return value;
    },

    async waitForChildren(children, waiting) {
      if (children.length === 0) return [];
      if (!token) throw new Error('only a job run by a worker can wait for children');
      const planned = plan(children);
      if (job.data.childrenAdded === undefined) {
        await addChildren(planned);
        await deps.step(
          waiting?.step ?? 'WaitingForChildren',
          waiting?.message ?? `Waiting for ${children.length} jobs`,
        );
        await job.updateData({ ...job.data, childrenAdded: children.length });
      }
      // Atomic in Redis: false when every child has already ended (then this run goes on), true when this job is
      // now in `waiting-children` without its lock; the worker then leaves it there (WaitingChildrenError).
      if (await job.moveToWaitingChildren(token)) return WAIT_FOR_CHILDREN;
      return collect(planned);
    },
  };
}
