// The fuzz suite's randomness: one seeded generator (mulberry32), so a failure printed with its seed replays exactly.
// FUZZ_SEED picks the seed (default fixed, for CI); FUZZ_ROUNDS how many random cases per operation.

export interface Random {
  readonly seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

export function createRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    seed,
    next,
    int,
    pick: <T>(items: readonly T[]) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(items.length)]!;
    },
    chance: (p) => next() < p,
  };
}

export const DEFAULT_SEED = 20261124;
export const DEFAULT_ROUNDS = 20;

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return n;
}

export const fuzzSeed = () => envNumber('FUZZ_SEED', DEFAULT_SEED);
export const fuzzRounds = () => envNumber('FUZZ_ROUNDS', DEFAULT_ROUNDS);
