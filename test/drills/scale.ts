// How big a drill runs: `npm run drills` full size, `npm test` a short form (README.md here, "Sizes").

/**
 * Drill sizes are multiplied by DRILL_SCALE (a number in (0, 1], default 1): `npm run drills` runs them full size,
 * `npm test` at a quarter. Each drill says the smallest size that still proves its point.
 */
const DRILL_SCALE = scaleFrom(process.env.DRILL_SCALE);

function scaleFrom(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!(n > 0 && n <= 1)) throw new Error(`DRILL_SCALE: "${raw}" is not a number in (0, 1]`);
  return n;
}

/**
 * The suite's short form (`npm test`, DRILL_SCALE below 1) runs one drill of each kind (a kill, a flush, a restart,
 * Redis down, faults, SIGTERM); drills that repeat a kind on another scene run in `npm run drills` only, listed as
 * skipped with this reason so the suite's report says where they went. Used as the options of the drill's describe
 * (test/support/needs.ts); its setup lives in the describe, so a skipped drill starts nothing.
 */
export const fullSetOnly = (): { skip: boolean; meta: { skipReason?: string } } =>
  DRILL_SCALE < 1
    ? {
        skip: true,
        meta: { skipReason: 'full drill set only: `npm run drills` runs it (the suite runs one drill of each kind)' },
      }
    : { skip: false, meta: {} };

/** `full` at DRILL_SCALE, never below `min`. */
export function scaled(full: number, min: number): number {
  return Math.max(min, Math.round(full * DRILL_SCALE));
}
