// The drills' clock knob (src/main/test-clock.ts): a deployment cannot run on a shifted clock by accident.
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { ConfigError } from '../../src/config.js';
import { clockFromEnv } from '../../src/main/test-clock.js';

const issues = (env: Record<string, string>) => {
  try {
    clockFromEnv(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.issues;
    throw err;
  }
  return [];
};

describe('the roles clock', () => {
  it('is the system clock unless a test shifts it', () => {
    expect(clockFromEnv({}).clock).toBe(systemClock);
    expect(clockFromEnv({ NODE_ENV: 'production', BEEKEEPER_TEST_CLOCK_OFFSET_MS: '' }).clock).toBe(systemClock);
  });

  it('refuses BEEKEEPER_TEST_CLOCK_OFFSET_MS outside tests, and a shift of more than two minutes', () => {
    expect(issues({ BEEKEEPER_TEST_CLOCK_OFFSET_MS: '30000' })).toEqual([
      'BEEKEEPER_TEST_CLOCK_OFFSET_MS: a test knob, honoured only with NODE_ENV=test; unset it',
    ]);
    expect(issues({ NODE_ENV: 'production', BEEKEEPER_TEST_CLOCK_OFFSET_MS: '30000' })).toHaveLength(1);
    expect(issues({ NODE_ENV: 'test', BEEKEEPER_TEST_CLOCK_OFFSET_MS: '3600000' })).toHaveLength(1);
    expect(issues({ NODE_ENV: 'test', BEEKEEPER_TEST_CLOCK_OFFSET_MS: '1.5' })).toHaveLength(1);
  });

  it('in a test, reads ahead by the offset and fires timers when the shifted time reaches them', async () => {
    const { clock, offsetMs } = clockFromEnv({ NODE_ENV: 'test', BEEKEEPER_TEST_CLOCK_OFFSET_MS: '45000' });
    expect(offsetMs).toBe(45_000);
    const drift = clock.now() - Date.now() - 45_000;
    expect(Math.abs(drift)).toBeLessThan(1_000);
    // A timer at the shifted "now plus 20 ms" fires in about 20 ms of real time, not 45 s later.
    const fired = await new Promise<boolean>((resolve) => {
      clock.at(clock.now() + 20, () => resolve(true));
      setTimeout(() => resolve(false), 10_000).unref();
    });
    expect(fired).toBe(true);
  });
});
