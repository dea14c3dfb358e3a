// Three scheduler replicas run the resync on the same slots; the RunCoordinator over Redis (SET NX PX on
// <prefix>:resync:<slot>) hands each slot to exactly one of them, for node-cron's slots and for runOnce alike.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeRedis, createRedis, type RedisClient } from '../../src/redis/connect.js';
import { createRedisRunCoordinator } from '../../src/redis/run-coordinator.js';
import { startResync, type Resync } from '../../src/schedules/resync.js';
import { createLogger } from '../../src/logger.js';
import { HUB, STATE_NS, startBed, type Bed } from './support.js';

let bed: Bed;
const clients: RedisClient[] = [];
const replicas: Resync[] = [];
/** Every run of the counting repairer: which replica, which slot. */
const runs: Array<{ replica: number; slot: string }> = [];
const waiters: Array<() => void> = [];

beforeAll(async () => {
  bed = await startBed(Date.now(), { roles: ['api'] });
  const prefix = bed.env.BEEKEEPER_REDIS_PREFIX!;
  for (let i = 0; i < 3; i++) {
    const redis = createRedis({ url: bed.env.REDIS_URL!, prefix }, 'producer');
    clients.push(redis);
    replicas.push(
      startResync({
        store: bed.system.store,
        clock: bed.clock,
        log: createLogger({ level: 'silent' }),
        stateHub: HUB,
        stateNamespace: STATE_NS,
        intervalSeconds: 1,
        coordinator: createRedisRunCoordinator(redis, prefix),
        instance: `replica-${i}`,
        repairers: [
          {
            name: 'count',
            repair: async ({ slot }) => {
              runs.push({ replica: i, slot });
              for (const w of waiters.splice(0)) w();
              return [];
            },
          },
        ],
      }),
    );
  }
}, 60_000);

afterAll(async () => {
  for (const r of replicas) await r.close();
  for (const c of clients) await closeRedis(c);
  await bed?.close();
});

const slots = () => [...new Set(runs.map((r) => r.slot))].sort();
const untilSlots = (n: number) =>
  new Promise<void>((resolve) => {
    const check = () => (slots().filter((s) => !s.startsWith('shared')).length >= n ? resolve() : waiters.push(check));
    check();
  });

describe('the resync on three scheduler replicas', () => {
  it('runs each node-cron slot once, on one of them, under <prefix>:resync:<slot>', async () => {
    await untilSlots(6);
    const seen = slots();
    // The last slot may still be being decided; every earlier one has had its say by every replica.
    for (const slot of seen.slice(0, -1))
      expect(
        runs.filter((r) => r.slot === slot),
        slot,
      ).toHaveLength(1);
    const redis = new Redis(bed.env.REDIS_URL!);
    const keys = await redis.keys(`${bed.env.BEEKEEPER_REDIS_PREFIX}:resync:*`);
    redis.disconnect();
    for (const slot of seen) expect(keys).toContain(`${bed.env.BEEKEEPER_REDIS_PREFIX}:resync:${slot}`);
  }, 30_000);

  it('runs a slot asked of all three at once (runOnce) exactly once', async () => {
    const records = await Promise.all(replicas.map((r) => r.runOnce('shared-slot')));
    expect(records.filter(Boolean)).toHaveLength(1);
    expect(runs.filter((r) => r.slot === 'shared-slot')).toHaveLength(1);
  });
});
