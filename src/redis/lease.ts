// A lease in Redis that one process of a fleet holds at a time (the scheduler role's: it alone observes the
// claim-wait histogram and writes hub reachability Events). `SET NX PX` takes it, a check-and-extend script renews
// it every third of its time to live, a check-and-delete gives it back on close. A holder that cannot renew (Redis
// down, the process stalled) stops calling itself the holder when its time runs out, by its own timer, before any
// other replica can take the key; for a metric and an Event that is enough (a lost handover costs at most an
// observation, never a duplicate).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { RedisClient } from './connect.js';
import { within } from './within.js';

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface Lease {
  /** True while this process holds the lease. */
  held(): boolean;
  /** Who holds it, as written in Redis (`host/pid/random`), for logs. */
  readonly id: string;
  close(): Promise<void>;
}

export interface LeaseOptions {
  redis: RedisClient;
  /** The full key, prefix included. */
  key: string;
  ttlMs?: number;
  /** Told when this process gains or loses the lease while running (not when close() hands it back). */
  onChange?: (held: boolean) => void;
}

export function startLease({ redis, key, ttlMs = 15_000, onChange }: LeaseOptions): Lease {
  const id = `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`;
  // Real time, not the injected Clock: the key expires in Redis by real time.
  let validUntil = 0;
  const period = Math.max(50, Math.floor(ttlMs / 3));
  let closed = false;
  let was = false;
  const held = () => !closed && performance.now() < validUntil;
  const note = () => {
    const now = held();
    if (now !== was) {
      was = now;
      onChange?.(now);
    }
  };

  const tick = async () => {
    const started = performance.now();
    try {
      const answer = was ? redis.eval(RENEW, 1, key, id, String(ttlMs)) : redis.set(key, id, 'PX', ttlMs, 'NX');
      const ok = ['OK', 1].includes((await within(period, 'the lease', answer)) as string | number);
      // Counted from before the request: the key may have been set that long ago.
      validUntil = ok && !closed ? started + ttlMs : 0;
    } catch {
      // Redis does not answer: keep what is left of the current term; it runs out by itself.
    }
    note();
  };

  let running = tick();
  const timer = setInterval(() => {
    running = running.then(tick);
  }, period);
  timer.unref();
  // Also loses the lease when the term runs out between ticks (a stalled renewal).
  const expiry = setInterval(note, period);
  expiry.unref();

  return {
    held,
    id,
    async close() {
      clearInterval(timer);
      clearInterval(expiry);
      await running;
      const had = was;
      closed = true;
      validUntil = 0;
      // Handed back, not lost: onChange is not told (the owner logs the hand-back itself).
      was = false;
      if (had) await within(period, 'the lease release', redis.eval(RELEASE, 1, key, id)).catch(() => undefined);
    },
  };
}
