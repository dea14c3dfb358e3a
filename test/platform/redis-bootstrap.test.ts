import { describe, expect, it } from 'vitest';
import { bootstrapRedis, pingRedis, RedisMissing } from '../../src/redis/bootstrap.js';
import { REDIS_URL } from './support.js';

// Port 1 never runs Redis: it stands in for "nothing answers on 127.0.0.1:6379".
const NOTHING_THERE = 'redis://127.0.0.1:1';

describe('finding a Redis', () => {
  it('uses the configured one as is', async () => {
    const boot = await bootstrapRedis(
      { url: REDIS_URL(), prefix: '{x}' },
      { allowPrivate: true, localUrl: NOTHING_THERE },
    );
    expect(boot).toMatchObject({ origin: 'configured', redis: { url: REDIS_URL() } });
  });

  it('uses a local one when nothing is configured', async () => {
    const boot = await bootstrapRedis({ prefix: '{x}' }, { allowPrivate: false, localUrl: REDIS_URL() });
    expect(boot).toMatchObject({ origin: 'local', redis: { url: REDIS_URL() } });
  });

  it('starts a private redis-server for all-in-one when none answers, and stops it on close', async () => {
    const boot = await bootstrapRedis({ prefix: '{x}' }, { allowPrivate: true, localUrl: NOTHING_THERE });
    expect(boot.origin).toBe('private');
    expect(await pingRedis(boot.redis.url!)).toBe(true);
    await boot.close();
    expect(await pingRedis(boot.redis.url!)).toBe(false);
  });

  it('says how to get Redis when it may not start one', async () => {
    const err = await bootstrapRedis({ prefix: '{x}' }, { allowPrivate: false, localUrl: NOTHING_THERE }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(RedisMissing);
    expect(err.message).toMatch(/apt-get install -y redis-server/);
    expect(err.message).toMatch(/REDIS_URL=redis:\/\//);
  });
});
