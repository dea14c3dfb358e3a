// The job queue as callers of /v1/jobs see it: Redis first, and for a job Redis does not have (flushed, restarted,
// down, or not queued yet) the view its Operation gives, never a 404. Waits and watches follow the Operation too,
// so a `?wait` or an event stream on a lost job ends when the job, queued again by the resync, has ended.
import { NotFound, Unavailable } from '../../hive/errors.js';
import type { HiveStore, JobQueue, JobView, StateLocation } from '../ports.js';
import { isFinished, operationRef, type Operation } from './operation.js';

const ENDED = new Set(['completed', 'failed']);

export interface LedgerDeps extends StateLocation {
  store: HiveStore;
  find(name: string): Promise<Operation | undefined>;
  kubernetesView(op: Operation): JobView;
}

/** `queue` with get, waitUntilDone and watch answering from Operations where Redis has nothing. */
export function withOperations<Q extends JobQueue>(queue: Q, deps: LedgerDeps): Q {
  const get = async (id: string): Promise<JobView | undefined> => {
    let down: Unavailable | undefined;
    try {
      const view = await queue.get(id);
      if (view) return view;
    } catch (err) {
      if (!(err instanceof Unavailable)) throw err;
      down = err;
    }
    const op = await deps.find(id);
    if (op) return deps.kubernetesView(op);
    if (down) throw down;
    return undefined;
  };

  const watch = (id: string, listener: (job: JobView) => void): (() => void) => {
    let stopped = false;
    let last = '';
    let chain = Promise.resolve();
    const refresh = () => {
      chain = chain.then(async () => {
        if (stopped) return;
        const view = await get(id).catch(() => undefined);
        const text = JSON.stringify(view);
        if (!view || stopped || text === last) return;
        last = text;
        listener(view);
      });
    };
    // The queue's events cover a job in Redis (including one queued again later); the Operation's, one that is not.
    const stopQueue = queue.watch(id, refresh);
    const stopOp = deps.store.onChange<Operation>('Operation', (hub, _type, op) => {
      if (hub === deps.stateHub && op.metadata.name === id && op.metadata.namespace === deps.stateNamespace) refresh();
    });
    refresh();
    return () => {
      stopped = true;
      stopQueue();
      stopOp();
    };
  };

  const waitUntilDone = async (id: string, timeoutMs: number): Promise<JobView> => {
    const first = await get(id);
    if (!first) throw new NotFound(`job ${id} not found`);
    if (ENDED.has(first.state) || timeoutMs <= 0) return first;
    if (first.source !== 'kubernetes') return queue.waitUntilDone(id, timeoutMs);
    // The worker records the end on the Operation, wherever the job runs once queued again.
    const until = Date.now() + timeoutMs;
    await deps.store
      .waitFor<Operation, true>(
        'Operation',
        operationRef(deps, id),
        (op) => (op && isFinished(op) ? true : undefined),
        { timeoutMs },
      )
      .catch(() => undefined);
    const now = (await get(id).catch(() => undefined)) ?? first;
    // The worker writes the Operation's end just before BullMQ records the job's: a moment later Redis says so too.
    if (now.source !== 'kubernetes' && !ENDED.has(now.state))
      return queue.waitUntilDone(id, Math.max(0, until - Date.now()));
    return now;
  };

  return { ...queue, get, watch, waitUntilDone };
}
