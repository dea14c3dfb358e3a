// Timers that only enqueue (the scheduler role). Each tick enqueues with a job id derived from the task name and
// the slot time, so any number of scheduler replicas produce exactly one job per slot: the duplicates collapse
// on the id in Redis, with no leader election.
import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from '../logger.js';
import type { EnqueueOptions, JobQueue, JobTarget } from '../services/ports.js';

export interface TickJob {
  type: string;
  payload: Record<string, unknown>;
  hub?: string;
  target?: JobTarget;
}

export interface TickerTask {
  /** Letters, digits, `-`: part of every job id this task produces. */
  name: string;
  /** node-cron pattern; six fields means seconds first. */
  cron: string;
  timezone?: string;
  /** What to enqueue for the slot that fell due (no job when it returns nothing). */
  job(slot: Date): TickJob | TickJob[] | undefined | Promise<TickJob | TickJob[] | undefined>;
}

export interface Ticker {
  add(task: TickerTask): void;
  close(): Promise<void>;
}

export function createTicker(deps: { queue: JobQueue; log: Logger }): Ticker {
  const tasks: ScheduledTask[] = [];
  return {
    add(task) {
      if (!/^[A-Za-z0-9-]+$/.test(task.name)) throw new Error(`ticker task name ${JSON.stringify(task.name)} must be letters, digits and -`);
      if (!cron.validate(task.cron)) throw new Error(`ticker task ${task.name}: invalid cron pattern ${JSON.stringify(task.cron)}`);
      const log = deps.log.child({ ticker: task.name });
      tasks.push(
        cron.schedule(
          task.cron,
          async (ctx) => {
            // The slot (when it was due), not the moment the callback ran, so replicas agree on the id.
            const slot = ctx.date;
            const produced = await task.job(slot);
            const list = produced === undefined ? [] : Array.isArray(produced) ? produced : [produced];
            for (const [i, j] of list.entries()) {
              const opts: EnqueueOptions & { target?: JobTarget } = {
                jobId: `tick-${task.name}-${slot.getTime()}${list.length > 1 ? `-${i}` : ''}`,
                ...(j.hub ? { hub: j.hub } : {}),
                ...(j.target ? { target: j.target } : {}),
              };
              try {
                await deps.queue.enqueue(j.type, j.payload, opts);
              } catch (err) {
                log.warn({ err, type: j.type }, 'tick could not enqueue');
              }
            }
          },
          { name: task.name, ...(task.timezone ? { timezone: task.timezone } : {}), noOverlap: true },
        ),
      );
    },
    async close() {
      await Promise.all(tasks.splice(0).map(async (t) => t.destroy()));
    },
  };
}
