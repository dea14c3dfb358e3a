// Job change notifications for `watch` (SSE, ?wait). One QueueEvents reader per queue, created on first use, fans
// out to listeners by job id; each notification re-reads the job so listeners always get a whole JobView, in order.
import { QueueEvents, type ConnectionOptions, type Queue } from 'bullmq';
import type { Logger } from '../logger.js';
import type { RedisClient } from '../redis/connect.js';
import type { JobView } from '../services/ports.js';

const EVENTS = [
  'waiting',
  'waiting-children',
  'active',
  'progress',
  'delayed',
  'stalled',
  'completed',
  'failed',
  'retries-exhausted',
  'removed',
] as const;

export interface JobEvents {
  /** Resolves once events of these queues are being read (so nothing after this moment is missed). */
  subscribe(queues: readonly string[], id: string, onChange: () => void): Promise<() => void>;
  close(): Promise<void>;
}

export function createJobEvents(deps: {
  connection: ConnectionOptions;
  /** Any ready client, to read where the event stream ends. */
  redis: RedisClient;
  prefix: string;
  /** By queue name. */
  queues: ReadonlyMap<string, Queue>;
  log: Logger;
}): JobEvents {
  const readers = new Map<string, Promise<QueueEvents>>();
  const listeners = new Map<string, Set<() => void>>();

  const fire = (jobId: string) => listeners.get(jobId)?.forEach((fn) => fn());

  const reader = (name: string) => {
    let existing = readers.get(name);
    if (!existing) {
      existing = (async () => {
        const queue = deps.queues.get(name)!;
        // Start reading at the stream's current end (not at '$' when the blocking read begins), so an event
        // emitted between subscribing and the first read is not lost.
        const last = await deps.redis.xrevrange(queue.keys.events!, '+', '-', 'COUNT', 1);
        const events = new QueueEvents(queue.name, {
          connection: deps.connection,
          prefix: deps.prefix,
          lastEventId: last[0]?.[0] ?? '0-0',
        });
        events.on('error', (err) => deps.log.warn({ err, queue: name }, 'job event stream error'));
        for (const name of EVENTS) events.on(name, (args: { jobId: string }) => fire(args.jobId));
        await events.waitUntilReady();
        return events;
      })();
      existing.catch(() => readers.delete(name));
      readers.set(name, existing);
    }
    return existing;
  };

  return {
    async subscribe(queues, id, onChange) {
      await Promise.all(queues.map(reader));
      let set = listeners.get(id);
      if (!set) listeners.set(id, (set = new Set()));
      set.add(onChange);
      return () => {
        set.delete(onChange);
        if (set.size === 0) listeners.delete(id);
      };
    },
    async close() {
      const all = [...readers.values()];
      readers.clear();
      await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.close()));
    },
  };
}

export type { JobView };
