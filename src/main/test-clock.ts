// The roles' clock. Production: the system clock, always. The drills (test/drills/harness.ts) may shift it with
// BEEKEEPER_TEST_CLOCK_OFFSET_MS so that a schedule's whole-minute edge comes seconds after they set it up, rather
// than up to a minute later; every role of a drill gets the same offset, so they agree on what time it is.
// A test knob, not a setting: honoured only with NODE_ENV=test, and refused (the role does not start) without it, so
// a deployment cannot run on a shifted clock by accident.
import { offsetClock, systemClock, type Clock } from '../clock.js';
import { ConfigError } from '../config.js';

export const TEST_CLOCK_OFFSET_VAR = 'BEEKEEPER_TEST_CLOCK_OFFSET_MS';
/** A drill needs less than a minute (the distance to the next whole minute); more would be a mistake. */
const MAX_OFFSET_MS = 120_000;

/** The system clock, or (tests only) the system clock shifted by BEEKEEPER_TEST_CLOCK_OFFSET_MS. */
export function clockFromEnv(env: Record<string, string | undefined>): { clock: Clock; offsetMs: number } {
  const raw = env[TEST_CLOCK_OFFSET_VAR];
  if (raw === undefined || raw === '') return { clock: systemClock, offsetMs: 0 };
  if (env.NODE_ENV !== 'test')
    throw new ConfigError([`${TEST_CLOCK_OFFSET_VAR}: a test knob, honoured only with NODE_ENV=test; unset it`]);
  const offsetMs = Number(raw);
  if (!Number.isInteger(offsetMs) || Math.abs(offsetMs) > MAX_OFFSET_MS)
    throw new ConfigError([
      `${TEST_CLOCK_OFFSET_VAR}: "${raw}" is not a whole number of milliseconds within ±${MAX_OFFSET_MS}`,
    ]);
  return { clock: offsetClock(systemClock, offsetMs), offsetMs };
}
