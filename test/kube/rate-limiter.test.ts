// The hub's rate limiter gives its few requests a second to the work people wait on first: an API request or an
// interactive job that arrives behind a background sweep's queued requests goes next, not last. Within a class,
// arrival order. An aborted wait leaves the queue.
import { describe, expect, it } from 'vitest';
import { createTokenBucket } from '../../src/kube/rate-limiter.js';
import { runAs } from '../../src/work-class.js';

describe('the hub rate limiter', () => {
  it('serves an interactive caller before background callers that queued earlier, each class in arrival order', async () => {
    const bucket = createTokenBucket({ qps: 50, burst: 1 });
    await bucket.take(); // the burst: everyone after this waits for tokens
    const order: string[] = [];
    const background = [1, 2, 3, 4].map((i) =>
      runAs('background', () => bucket.take()).then(() => order.push(`sweep-${i}`)),
    );
    // Outside any job, as an API request runs: interactive.
    const user = [1, 2].map((i) => bucket.take().then(() => order.push(`user-${i}`)));
    await Promise.all([...background, ...user]);
    expect(order).toEqual(['user-1', 'user-2', 'sweep-1', 'sweep-2', 'sweep-3', 'sweep-4']);
  });

  it('drops an aborted wait from the queue and rejects it with the abort reason', async () => {
    const bucket = createTokenBucket({ qps: 50, burst: 1 });
    await bucket.take();
    const gone = new AbortController();
    const order: string[] = [];
    const aborted = bucket.take(gone.signal, 'background').then(
      () => order.push('aborted one ran'),
      (err: unknown) => order.push(`rejected: ${(err as Error).message}`),
    );
    const next = bucket.take(undefined, 'background').then(() => order.push('next'));
    gone.abort(new Error('caller left'));
    await Promise.all([aborted, next]);
    expect(order).toEqual(['rejected: caller left', 'next']);
  });
});
