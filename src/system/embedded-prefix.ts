// Embedded mode runs a simulator private to this process. Two `npm start`s on one Redis (the shared 127.0.0.1:6379
// of a dev machine) must not share queues: the other process's worker would run this one's create job against its
// own simulator, so the job "completes" and the cluster never appears here. With the default prefix, each embedded
// process takes a prefix of its own and removes its keys when it stops, as its simulator's state goes too.
import { randomUUID } from 'node:crypto';
import { DEFAULT_REDIS_PREFIX, type Config } from '../config.js';
import type { RedisClient } from '../redis/connect.js';

/** The per-process prefix embedded mode should use, or undefined when hubs or a prefix were configured. */
export function embeddedPrefix(config: Config): string | undefined {
  if (config.hubs.length > 0 || config.redis.prefix !== DEFAULT_REDIS_PREFIX) return undefined;
  // Keeps a {hash tag}, so every key stays in one slot under Redis Cluster as BullMQ requires.
  return `{beekeeper-embedded-${randomUUID().slice(0, 8)}}`;
}

/** Delete every key under `prefix` (queues, job history, idempotency records). */
export async function dropKeys(redis: RedisClient, prefix: string): Promise<void> {
  // Under Redis Cluster the hash tag puts them all on one node; SCAN per master finds them wherever that is.
  const nodes = 'nodes' in redis ? redis.nodes('master') : [redis];
  for (const node of nodes) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await node.del(...keys);
    } while (cursor !== '0');
  }
}
