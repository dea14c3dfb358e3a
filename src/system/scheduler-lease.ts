// Scheduler replicas elect one holder of what must happen once fleet-wide (src/redis/lease.ts); the lease is
// handed back on close, and both are logged so a handover can be followed.
import type { Logger } from '../logger.js';
import type { RedisClient } from '../redis/connect.js';
import { startLease, type Lease } from '../redis/lease.js';

export function startSchedulerLease(deps: { redis: RedisClient; prefix: string; ttlMs?: number; log: Logger }): Lease {
  const log = deps.log.child({ component: 'lease' });
  const lease = startLease({
    redis: deps.redis,
    key: `${deps.prefix}:lease:scheduler`,
    ...(deps.ttlMs ? { ttlMs: deps.ttlMs } : {}),
    onChange: (held) => log.info({ held }, held ? 'holds the scheduler lease' : 'lost the scheduler lease'),
  });
  return {
    ...lease,
    async close() {
      const had = lease.held();
      await lease.close();
      if (had) log.info({}, 'handed back the scheduler lease');
    },
  };
}
