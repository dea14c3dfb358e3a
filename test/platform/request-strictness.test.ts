// Requests mean exactly what they say: a body field of the wrong JSON type is a 422 naming it, never coerced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HUB, prerequisites, startBed, type Bed } from '../clusters/support.js';

let bed: Bed;
const ns = 'strict';

interface Answer {
  status: number;
  type: string;
  body: { code?: string; detail?: string; errors?: Array<{ field: string; reason: string }> };
  text: string;
}

async function send(method: string, url: string, payload?: unknown): Promise<Answer> {
  const res = await bed.app.inject({ method: method as 'POST', url, ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, type: String(res.headers['content-type']), body: res.body ? res.json() : {}, text: res.body };
}

const fields = (a: Answer) => (a.body.errors ?? []).map((e) => e.field).sort();

beforeAll(async () => {
  bed = await startBed();
  await prerequisites(bed, ns);
});
afterAll(async () => bed?.close());

describe('claims take the body as sent', () => {
  beforeAll(async () => {
    const pool = await send('POST', '/v1/pools', { hub: HUB, namespace: ns, name: 'demo-aws', platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' }, baseDomain: 'example.com', imageSetName: 'openshift-v4.16.3', pullSecretRef: 'pull-secret', size: 0 });
    expect(pool.status, pool.text).toBe(201);
  });
  const claims = async () => (await bed.system.store.list('ClusterClaim', HUB, { namespace: ns })).map((c) => c.metadata.name);

  it('a list where a string belongs, or a number for a version, is 422 naming the field; no claim is made', async () => {
    const pool = `${HUB}/${ns}/demo-aws`;
    const cases: Array<[unknown, string]> = [
      [{ pool: [pool] }, 'pool'],
      [{ pool, lifetime: ['2h'] }, 'lifetime'],
      [{ pool, heartbeatTimeout: ['5m'] }, 'heartbeatTimeout'],
      [{ selector: { version: 4.16 } }, 'selector.version'],
    ];
    for (const [body, field] of cases) {
      const res = await send('POST', '/v1/claims', body);
      expect({ body, status: res.status, fields: fields(res) }).toEqual({ body, status: 422, fields: [field] });
      expect(res.body.code).toBe('Invalid');
    }
    expect(await claims()).toEqual([]);
    // The same requests, as meant, are claims.
    expect((await send('POST', '/v1/claims', { selector: { version: '4.16' }, name: 'as-meant' })).status).toBe(201);
    expect(await claims()).toEqual(['as-meant']);
  });
});
