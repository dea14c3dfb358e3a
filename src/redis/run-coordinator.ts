// node-cron's RunCoordinator over Redis: the first replica to claim a slot's key runs the slot, the others skip it
// (STACK.md §3c). `SET NX PX` on `<prefix>:<key>`; the key is node-cron's `<task>:<slot ISO>`, so the resync's
// slots are `<prefix>:resync:<slot>`. The key is never deleted early: a replica whose timer fires late must still
// find the slot taken.
import type { RunCoordinator } from 'node-cron';
import type { RedisClient } from './connect.js';

export function createRedisRunCoordinator(redis: RedisClient, prefix: string): RunCoordinator {
  return {
    shouldRun: async (key, ttlMs) =>
      (await redis.set(`${prefix}:${key}`, '1', 'PX', Math.max(1, Math.round(ttlMs)), 'NX')) === 'OK',
  };
}

/** Calls `fn` each time the client is ready again after losing its connection (not on the first connect). */
export function onReconnected(redis: RedisClient, fn: () => void): () => void {
  let lost = redis.status !== 'ready';
  const down = () => {
    lost = true;
  };
  const ready = () => {
    if (!lost) return;
    lost = false;
    fn();
  };
  redis.on('close', down);
  redis.on('ready', ready);
  return () => {
    redis.off('close', down);
    redis.off('ready', ready);
  };
}
