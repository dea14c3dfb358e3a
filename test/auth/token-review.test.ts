// Sign-in with a pod's ServiceAccount token: Beekeeper asks the configured hub (TokenReview); the simulator issues
// the token (TokenRequest) and reviews it as kube-apiserver does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthBed, type AuthBed } from './sign-in-support.js';

let b: AuthBed;
const NS = 'ci';

async function serviceAccountToken(name: string, spec: Record<string, unknown> = {}): Promise<string> {
  const res = await b.kube('POST', `/api/v1/namespaces/${NS}/serviceaccounts/${name}/token`, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec,
  });
  expect(res.status).toBe(201);
  return res.body.status.token as string;
}

beforeAll(async () => {
  b = await startAuthBed({ BEEKEEPER_TOKENREVIEW_HUB: 'east', BEEKEEPER_TOKENREVIEW_CACHE_SECONDS: '0' });
  await b.kube('POST', '/api/v1/namespaces', { metadata: { name: NS } });
  for (const name of ['runner', 'gone'])
    await b.kube('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name } });
});
afterAll(async () => {
  await b?.close();
});

describe('the simulator as an API server', () => {
  it('issues a signed ServiceAccount JWT and answers TokenReview with the user, its groups and audiences', async () => {
    const token = await serviceAccountToken('runner');
    expect(token.split('.')).toHaveLength(3);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({
      iss: 'https://kubernetes.default.svc.cluster.local',
      aud: ['https://kubernetes.default.svc.cluster.local'],
      sub: `system:serviceaccount:${NS}:runner`,
      'kubernetes.io': { namespace: NS, serviceaccount: { name: 'runner' } },
    });
    expect(claims.exp - claims.iat).toBe(3600);
    const review = await b.kube('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token },
    });
    expect(review.status).toBe(201);
    expect(review.body).toEqual({
      kind: 'TokenReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { token },
      status: {
        authenticated: true,
        user: {
          username: `system:serviceaccount:${NS}:runner`,
          uid: expect.any(String),
          groups: ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated'],
        },
        audiences: ['https://kubernetes.default.svc.cluster.local'],
      },
    });
    const bad = await b.kube('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      spec: { token: 'not-a-token' },
    });
    expect(bad.status).toBe(201);
    expect(bad.body.status).toEqual({ user: {}, error: '[invalid bearer token]' });
  });

  it('refuses a TokenRequest for a missing ServiceAccount and a TokenReview without a token', async () => {
    expect(
      (
        await b.kube('POST', `/api/v1/namespaces/${NS}/serviceaccounts/nobody/token`, {
          kind: 'TokenRequest',
          spec: {},
        })
      ).status,
    ).toBe(404);
    const empty = await b.kube('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { spec: {} });
    expect([empty.status, empty.body.message]).toEqual([400, 'token is required for TokenReview in authentication']);
  });
});

describe('sign-in by TokenReview', () => {
  it('accepts a ServiceAccount token and names the caller system:serviceaccount:<ns>:<name>', async () => {
    const token = await serviceAccountToken('runner');
    expect((await b.get('/v1/hubs', token)).status).toBe(200);
    expect(b.principals().at(-1)).toBe(`system:serviceaccount:${NS}:runner`);
    expect(b.logs()).not.toContain(token);
  });

  it('refuses a tampered token, an expired one and one whose ServiceAccount was deleted', async () => {
    const token = await serviceAccountToken('runner');
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = [h, Buffer.from(JSON.stringify({ ...claims, sub: 'system:admin' })).toString('base64url'), s].join(
      '.',
    );
    const res = await b.get('/v1/hubs', forged);
    expect([res.status, res.headers['www-authenticate']]).toEqual([
      401,
      'Bearer realm="beekeeper", error="invalid_token"',
    ]);

    const doomed = await serviceAccountToken('gone');
    expect((await b.get('/v1/hubs', doomed)).status).toBe(200);
    await b.kube('DELETE', `/api/v1/namespaces/${NS}/serviceaccounts/gone`);
    expect((await b.get('/v1/hubs', doomed)).status).toBe(401);

    const short = await serviceAccountToken('runner', { expirationSeconds: 600 });
    expect((await b.get('/v1/hubs', short)).status).toBe(200);
    b.clock.advance(601_000);
    expect((await b.get('/v1/hubs', short)).status).toBe(401);
  });
});

describe('TokenReview audiences', () => {
  it('asks for the configured audiences: a token for them signs in, one for the API server does not', async () => {
    const strict = await startAuthBed({
      BEEKEEPER_TOKENREVIEW_HUB: 'east',
      BEEKEEPER_TOKENREVIEW_AUDIENCES: 'beekeeper',
    });
    try {
      const kube = (method: string, path: string, body?: unknown) => strict.kube(method, path, body);
      await kube('POST', '/api/v1/namespaces', { metadata: { name: NS } });
      await kube('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'runner' } });
      const issue = async (spec: Record<string, unknown>) =>
        (await kube('POST', `/api/v1/namespaces/${NS}/serviceaccounts/runner/token`, { kind: 'TokenRequest', spec }))
          .body.status.token as string;
      expect((await strict.get('/v1/hubs', await issue({ audiences: ['beekeeper'] }))).status).toBe(200);
      expect((await strict.get('/v1/hubs', await issue({}))).status).toBe(401);
    } finally {
      await strict.close();
    }
  });
});

describe('TokenReview answers remembered', () => {
  it('for cacheSeconds: a revoked token works until its answer expires, then the hub is asked again', async () => {
    const cached = await startAuthBed({ BEEKEEPER_TOKENREVIEW_HUB: 'east', BEEKEEPER_TOKENREVIEW_CACHE_SECONDS: '60' });
    try {
      await cached.kube('POST', '/api/v1/namespaces', { metadata: { name: NS } });
      await cached.kube('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'runner' } });
      const token = (
        await cached.kube('POST', `/api/v1/namespaces/${NS}/serviceaccounts/runner/token`, {
          kind: 'TokenRequest',
          spec: {},
        })
      ).body.status.token as string;
      expect((await cached.get('/v1/hubs', token)).status).toBe(200);
      await cached.kube('DELETE', `/api/v1/namespaces/${NS}/serviceaccounts/runner`);
      expect((await cached.get('/v1/hubs', token)).status).toBe(200);
      cached.clock.advance(61_000);
      expect((await cached.get('/v1/hubs', token)).status).toBe(401);
    } finally {
      await cached.close();
    }
  });
});
