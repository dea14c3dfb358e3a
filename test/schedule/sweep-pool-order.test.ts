// The sweep pool's order across hubs: a later task (an audit Event) starts only once every item (a cluster's PATCH)
// of every hub has been answered, even when its own hub finished long before; every later task still runs before
// the pool resolves, including one queued by the last item; an abort wakes the workers that wait for the others.
import { describe, expect, it } from 'vitest';
import { createHubPool } from '../../src/services/schedules/sweep-pool.js';

/** Yields to the event loop `n` times: an item that takes a while, without timers. */
const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
};

describe('the sweep pool', () => {
  it('starts no later task before every item of every hub is answered', async () => {
    const log: string[] = [];
    const items = new Map([
      ['fast', ['f1']],
      ['slow', ['s1', 's2', 's3', 's4']],
    ]);
    const pool = createHubPool<string>({
      items,
      width: () => 2,
      signal: new AbortController().signal,
      work: async (item, hub) => {
        await ticks(hub === 'slow' ? 5 : 0);
        log.push(`patched ${item}`);
        pool.later(hub, async () => void log.push(`event ${item}`));
      },
    });
    pool.later('fast', async () => void log.push('override'));
    await pool.run();
    const lastPatch = Math.max(...log.map((l, i) => (l.startsWith('patched') ? i : -1)));
    const firstLater = log.findIndex((l) => !l.startsWith('patched'));
    expect(lastPatch).toBeLessThan(firstLater);
    expect(log.filter((l) => l.startsWith('event')).sort()).toEqual(
      ['f1', 's1', 's2', 's3', 's4'].map((i) => `event ${i}`),
    );
    expect(log).toContain('override');
  });

  it('runs later tasks at once when there are no items, and rejects on abort while workers wait', async () => {
    const ran: string[] = [];
    const empty = createHubPool<string>({
      items: new Map(),
      width: () => 4,
      signal: new AbortController().signal,
      work: async () => undefined,
    });
    empty.later('hub', async () => void ran.push('task'));
    await empty.run();
    expect(ran).toEqual(['task']);

    const ac = new AbortController();
    const pool = createHubPool<string>({
      items: new Map([
        ['a', ['a1']],
        ['b', ['b1']],
      ]),
      width: () => 1,
      signal: ac.signal,
      work: async (item) => {
        if (item === 'b1') {
          // Hub a's worker is waiting for this one when the sweep is stopped.
          await ticks(3);
          ac.abort(new Error('stopped'));
          await ticks(1);
          ac.signal.throwIfAborted();
        }
      },
    });
    pool.later('a', async () => void ran.push('never'));
    await expect(pool.run()).rejects.toThrow('stopped');
    expect(ran).toEqual(['task']);
  });
});
