// The drills' clock knob (src/main/test-clock.ts): a deployment cannot run on a shifted clock by accident. And the
// tests' clock (createTestClock): a jump fires what is due at the time jumped to, and nothing after it.
import { describe, expect, it } from 'vitest';
import { createTestClock, systemClock } from '../../src/clock.js';
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

describe("the tests' clock", () => {
  it('fires on a jump the timers due by the time jumped to, never one a millisecond later', () => {
    // The clock follows real time between jumps; a jump's due check once counted the real milliseconds that passed
    // during the jump, so a timer 1 ms after the target fired now and then. Many jumps make that near certain.
    let early = 0;
    for (let i = 0; i < 20_000; i++) {
      const clock = createTestClock(1_000_000);
      const due = clock.now() + 3_600_000;
      let fired = 0;
      const cancel = clock.at(due, () => fired++);
      clock.set(due - 1);
      early += fired;
      clock.set(due);
      expect(fired).toBe(1);
      cancel();
    }
    expect(early).toBe(0);
    const clock = createTestClock(1_000_000);
    const order: string[] = [];
    clock.at(clock.now() + 20, () => order.push('b'));
    clock.at(clock.now() + 10, () => order.push('a'));
    clock.at(clock.now() + 60_000, () => order.push('c'));
    clock.advance(30);
    expect(order).toEqual(['a', 'b']);
  });
});
