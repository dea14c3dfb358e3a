// The simulator's APF-like limit (`maxInFlight`, `--max-inflight`): beyond N requests in flight it answers as
// kube-apiserver's max-in-flight filter does (maxinflight.go tooManyRequests: Go's http.Error, so plain text, with
// Retry-After: 1). Watches are long-running and not counted; without the option there is no limit.
import { afterAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/sim/apiserver/index.js';

const servers: ApiServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

async function serve(opts: Parameters<typeof startApiServer>[0]) {
  const server = await startApiServer(opts);
  servers.push(server);
  const get = (path: string, signal?: AbortSignal) =>
    fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.token}` }, signal });
  return { server, get };
}

describe('the simulator at its in-flight limit', () => {
  it('answers the request beyond the limit 429 with Retry-After: 1 and the plain-text body kube-apiserver sends', async () => {
    const { get } = await serve({ maxInFlight: 1, faults: { latency: [{ verb: 'get', ms: 300 }] } });
    const [first, second] = await Promise.all([
      get('/api/v1/namespaces/default'),
      new Promise((resolve) => setTimeout(resolve, 50)).then(() => get('/api/v1/namespaces/kube-system')),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(second.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(second.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await second.text()).toBe('Too many requests, please try again later.\n');
    // The slot is free again once the first is answered.
    expect((await get('/api/v1/namespaces/default')).status).toBe(200);
  });

  it('does not count an open watch', async () => {
    const { get } = await serve({ maxInFlight: 1 });
    const stop = new AbortController();
    const watch = await get('/api/v1/namespaces?watch=true', stop.signal);
    expect(watch.status).toBe(200);
    expect((await get('/api/v1/namespaces/default')).status).toBe(200);
    stop.abort();
  });

  it('has no limit by default', async () => {
    const { get } = await serve({ faults: { latency: [{ verb: 'get', ms: 100 }] } });
    const answers = await Promise.all(Array.from({ length: 20 }, () => get('/api/v1/namespaces/default')));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  });
});
