// A client-side token bucket per hub, like client-go's QPS/Burst: Beekeeper saturates what a hub allows and no more
// (ARCHITECTURE.md "Performance shape"). Waiting callers are served in arrival order within their class of work,
// interactive callers before background ones (work-class.ts): a hub's few requests a second go to the people
// waiting first, and background work takes what they leave.
import { workClass, type WorkClass } from '../work-class.js';
import { createClassQueue } from './class-queue.js';

export interface RateLimit {
  /** Sustained requests per second. */
  qps: number;
  /** Requests allowed at once after a quiet period. */
  burst: number;
}

export interface TokenBucket {
  /** Resolves when the caller may send one request; `cls` defaults to the class of the work calling. */
  take(signal?: AbortSignal, cls?: WorkClass): Promise<void>;
}

export function createTokenBucket({ qps, burst }: RateLimit, now: () => number = () => performance.now()): TokenBucket {
  let tokens = burst;
  let last = now();
  const waiting = createClassQueue();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const refill = () => {
    const t = now();
    tokens = Math.min(burst, tokens + ((t - last) / 1000) * qps);
    last = t;
  };

  const pump = () => {
    timer = undefined;
    refill();
    while (tokens >= 1 && waiting.admitNext()) tokens -= 1;
    if (waiting.size() > 0) timer = setTimeout(pump, Math.ceil(((1 - tokens) / qps) * 1000));
  };

  return {
    take(signal, cls = workClass()) {
      const turn = waiting.push(cls, signal);
      // Between ticks the timer serves the queue; arrivals then wait their turn rather than jump it.
      if (!timer) pump();
      return turn;
    },
  };
}
