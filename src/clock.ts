// One notion of time for Beekeeper and the simulator. Production uses the system clock; tests and the
// simulator use a controllable clock that can jump forward (so "8h later" takes no real time) while timers
// scheduled against it still fire in order.

export interface Clock {
  /** Milliseconds since the epoch, in this clock's time. */
  now(): number;
  /** Run `fn` once this clock reaches `atMs`. Returns a function that cancels the timer. */
  at(atMs: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  at(atMs, fn) {
    // setTimeout overflows past ~24.8 days; chain shorter waits.
    const MAX = 2 ** 31 - 1;
    let handle: NodeJS.Timeout;
    const arm = () => {
      const delay = atMs - Date.now();
      handle = setTimeout(delay > MAX ? arm : fn, Math.max(0, Math.min(delay, MAX)));
      handle.unref?.();
    };
    arm();
    return () => clearTimeout(handle);
  },
};

/**
 * `base` shifted by `offsetMs`: now() reads ahead (or behind) by the offset, and timers fire when the shifted time
 * reaches them. For the drills, which start the roles with their clocks a few seconds before a schedule's whole-minute
 * edge instead of waiting up to a minute for the real one (src/main/test-clock.ts).
 */
export function offsetClock(base: Clock, offsetMs: number): Clock {
  return {
    now: () => base.now() + offsetMs,
    at: (atMs, fn) => base.at(atMs - offsetMs, fn),
  };
}

export interface TestClock extends Clock {
  /** Jump forward; timers that fall due fire in time order. */
  advance(ms: number): void;
  /** Jump to an absolute time (never backwards). */
  set(atMs: number): void;
}

interface Pending {
  atMs: number;
  fn: () => void;
  seq: number;
}

/**
 * A clock that follows real time from `start` and can jump ahead. Timers fire either when real time reaches
 * them or when a jump passes them.
 */
export function createTestClock(start: number = Date.now()): TestClock {
  let offset = start - Date.now();
  let seq = 0;
  const pending = new Set<Pending>();
  let handle: NodeJS.Timeout | undefined;

  const now = () => Date.now() + offset;

  // `upTo`: the time a jump landed on, read once. Reading now() again here would count the real milliseconds that
  // passed since the jump, and a timer 1 ms after the time jumped to could fire with it (issue 14: a claim's 1h
  // warning fired on set(dueAt - 1) in one CI run in a few).
  const fireDue = (upTo: number = now()) => {
    const due = [...pending].filter((p) => p.atMs <= upTo).sort((a, b) => a.atMs - b.atMs || a.seq - b.seq);
    for (const p of due) {
      pending.delete(p);
      p.fn();
    }
    rearm();
  };

  const rearm = () => {
    if (handle) clearTimeout(handle);
    handle = undefined;
    if (pending.size === 0) return;
    const next = Math.min(...[...pending].map((p) => p.atMs));
    handle = setTimeout(() => fireDue(), Math.max(0, Math.min(next - now(), 2 ** 31 - 1)));
    handle.unref?.();
  };

  return {
    now,
    at(atMs, fn) {
      const p = { atMs, fn, seq: seq++ };
      pending.add(p);
      rearm();
      return () => {
        pending.delete(p);
        rearm();
      };
    },
    advance(ms) {
      if (ms < 0) throw new Error('a clock only moves forward');
      const landing = now() + ms;
      offset += ms;
      fireDue(landing);
    },
    set(atMs) {
      const t = now();
      if (atMs > t) offset += atMs - t;
      fireDue(Math.max(atMs, t));
    },
  };
}

/** Resolves after `ms` of this clock's time. */
export function sleep(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const cancel = clock.at(clock.now() + ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    const onAbort = () => {
      cancel();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
