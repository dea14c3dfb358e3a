// A client-side token bucket per hub, like client-go's QPS/Burst: Beekeeper saturates what a hub allows and no more
// (ARCHITECTURE.md "Performance shape"). Waiting callers are served in arrival order.

export interface RateLimit {
  /** Sustained requests per second. */
  qps: number;
  /** Requests allowed at once after a quiet period. */
  burst: number;
}

export interface TokenBucket {
  take(signal?: AbortSignal): Promise<void>;
}

export function createTokenBucket({ qps, burst }: RateLimit, now: () => number = () => performance.now()): TokenBucket {
  let tokens = burst;
  let last = now();
  let tail: Promise<void> = Promise.resolve();

  const refill = () => {
    const t = now();
    tokens = Math.min(burst, tokens + ((t - last) / 1000) * qps);
    last = t;
  };

  const takeOne = async (signal?: AbortSignal) => {
    refill();
    while (tokens < 1) {
      signal?.throwIfAborted();
      const waitMs = Math.ceil(((1 - tokens) / qps) * 1000);
      await new Promise((r) => setTimeout(r, waitMs));
      refill();
    }
    tokens -= 1;
  };

  return {
    take(signal) {
      const mine = tail.then(() => takeOne(signal));
      tail = mine.catch(() => undefined);
      return mine;
    },
  };
}
