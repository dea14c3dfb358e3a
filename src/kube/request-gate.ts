// The per-hub request gate: how many requests Beekeeper has in flight to one hub, and when it holds back. There is no
// rate cap by default (controller-runtime >= 0.15 dropped client-side QPS limits and relies on the server's API
// Priority and Fairness); the hub says when it is full, with 429 (or 503) and Retry-After, and the gate answers the
// way TCP answers congestion (AIMD):
// - every new request waits until Retry-After has passed (in-flight ones finish), and the window halves (min 1), once
//   per round: the answers to requests sent before that halving do not halve it again;
// - after each window's worth of successes the window grows by one, up to `maxInFlight`.
// Waiting callers are served interactive first (work-class.ts), background after, in arrival order within a class.
// The optional QPS cap (a token bucket, rate-limiter.ts) is kept for hubs whose owners want one.
import { workClass, type WorkClass } from '../work-class.js';
import { createClassQueue } from './class-queue.js';
import { createTokenBucket, type RateLimit } from './rate-limiter.js';

export interface RequestGateOptions {
  /** The most requests in flight at once (the window's ceiling). */
  maxInFlight: number;
  /** An optional client-side rate cap; none by default. */
  rateLimit?: RateLimit;
  /**
   * Seconds the hub asked to be left alone for, when a failed request is the server's signal (429, 503 with
   * Retry-After); undefined for any other outcome.
   */
  throttledFor(err: unknown): number | undefined;
  now?: () => number;
}

export interface RequestGateStats {
  inFlight: number;
  window: number;
  /** 429 / 503 with Retry-After received since start. */
  throttled: number;
  /** When (in `now`'s milliseconds) the pause after a 429 ends; 0 when not paused. */
  pausedUntil: number;
}

export interface RequestGate {
  /** Runs `send` once a slot is free (and the hub is not paused); `cls` defaults to the class of the work calling. */
  run<T>(send: () => Promise<T>, opts?: { signal?: AbortSignal; cls?: WorkClass }): Promise<T>;
  stats(): RequestGateStats;
}

export function createRequestGate(opts: RequestGateOptions): RequestGate {
  const { maxInFlight, throttledFor } = opts;
  const now = opts.now ?? (() => performance.now());
  const bucket = opts.rateLimit ? createTokenBucket(opts.rateLimit, now) : undefined;
  const waiting = createClassQueue();
  let window = maxInFlight;
  let inFlight = 0;
  let successes = 0;
  let throttled = 0;
  let pausedUntil = 0;
  /** Bumped at every halving: a request remembers the round it was sent in. */
  let round = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const pump = () => {
    const t = now();
    if (t < pausedUntil) {
      // One timer for the end of the pause; a longer pause set meanwhile re-arms it when it fires.
      timer ??= setTimeout(
        () => {
          timer = undefined;
          pump();
        },
        Math.ceil(pausedUntil - t),
      );
      return;
    }
    while (inFlight < window && waiting.admitNext()) inFlight++;
  };

  const acquire = (cls: WorkClass, signal?: AbortSignal) => {
    const turn = waiting.push(cls, signal);
    pump();
    return turn;
  };

  const release = (sentIn: number, err: unknown, failed: boolean) => {
    inFlight--;
    const seconds = failed ? throttledFor(err) : undefined;
    if (seconds !== undefined) {
      throttled++;
      pausedUntil = Math.max(pausedUntil, now() + seconds * 1000);
      if (sentIn === round) {
        window = Math.max(1, Math.floor(window / 2));
        round++;
        successes = 0;
      }
    } else if (!failed && window < maxInFlight && ++successes >= window) {
      window++;
      successes = 0;
    }
    pump();
  };

  return {
    async run(send, { signal, cls = workClass() } = {}) {
      await bucket?.take(signal, cls);
      await acquire(cls, signal);
      const sentIn = round;
      let result: Awaited<ReturnType<typeof send>>;
      try {
        result = await send();
      } catch (err) {
        release(sentIn, err, true);
        throw err;
      }
      release(sentIn, undefined, false);
      return result;
    },
    stats: () => ({ inFlight, window, throttled, pausedUntil: pausedUntil > now() ? pausedUntil : 0 }),
  };
}
