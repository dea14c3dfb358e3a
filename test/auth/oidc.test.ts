// OIDC sign-in against an identity provider played by the test: its discovery document and JWKS served over HTTP,
// tokens signed with jose. Validated: signature, issuer, audience, expiry, not-before (with clock skew), and key
// rotation (a new key id is fetched; a removed key stops working once the keys are fetched again).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type CryptoKey } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startAuthBed, type AuthBed } from './sign-in-support.js';

interface Key {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}
async function newKey(kid: string): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

let idp: Server;
let issuer = '';
let published: Key[] = [];
let b: AuthBed;
const now = () => Math.floor(Date.now() / 1000);

function sign(
  key: Key,
  claims: Record<string, unknown> = {},
  opts: { iss?: string; aud?: string; exp?: number; nbf?: number } = {},
) {
  const jwt = new SignJWT({ email: 'alice@example.com', groups: ['payments-devs'], ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid })
    .setSubject('alice')
    .setIssuer(opts.iss ?? issuer)
    .setAudience(opts.aud ?? 'beekeeper')
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? now() + 300);
  if (opts.nbf !== undefined) jwt.setNotBefore(opts.nbf);
  return jwt.sign(key.privateKey);
}

let k1: Key;
let k2: Key;

beforeAll(async () => {
  k1 = await newKey('k1');
  k2 = await newKey('k2');
  published = [k1];
  idp = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration')
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    else if (req.url === '/jwks') res.end(JSON.stringify({ keys: published.map((k) => k.jwk) }));
    else res.writeHead(404).end('{}');
  });
  await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
  b = await startAuthBed({
    BEEKEEPER_OIDC_ISSUER: issuer,
    BEEKEEPER_OIDC_AUDIENCE: 'beekeeper',
    BEEKEEPER_OIDC_CLOCK_SKEW_SECONDS: '30',
    BEEKEEPER_OIDC_JWKS_CACHE_SECONDS: '1',
  });
});
afterAll(async () => {
  await b?.close();
  await new Promise((r) => idp?.close(r));
});

const status = async (token: string) => (await b.get('/v1/hubs', token)).status;

describe('OIDC', () => {
  it("accepts the issuer's token and names the caller by its sub claim", async () => {
    const token = await sign(k1);
    expect(await status(token)).toBe(200);
    expect(b.principals().at(-1)).toBe('alice');
    expect(b.logs()).not.toContain(token);
  });

  it('refuses a token of another issuer or audience, an expired one and one not valid yet, each as invalid_token', async () => {
    const refused = [
      await sign(k1, {}, { aud: 'someone-else' }),
      await sign(k1, {}, { iss: 'https://other.example.com' }),
      await sign(k1, {}, { exp: now() - 120 }),
      await sign(k1, {}, { nbf: now() + 120 }),
    ];
    for (const token of refused) {
      const res = await b.get('/v1/hubs', token);
      expect([res.status, res.headers['www-authenticate']]).toEqual([
        401,
        'Bearer realm="beekeeper", error="invalid_token"',
      ]);
      // The answer does not say which check failed.
      expect(res.body.detail).toBe('the bearer token is not valid');
    }
  });

  it('tolerates the configured clock skew on exp and nbf', async () => {
    expect(await status(await sign(k1, {}, { exp: now() - 10 }))).toBe(200);
    expect(await status(await sign(k1, {}, { nbf: now() + 10 }))).toBe(200);
  });

  it('refuses a token signed by a key the issuer does not publish, and one without exp', async () => {
    const stranger = await newKey('k1');
    expect(await status(await sign(stranger))).toBe(401);
    const noExp = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject('alice')
      .setIssuer(issuer)
      .setAudience('beekeeper')
      .sign(k1.privateKey);
    expect(await status(noExp)).toBe(401);
  });

  it('follows key rotation: a new key id is fetched, a removed key stops working', async () => {
    const before = await sign(k1);
    expect(await status(before)).toBe(200);
    const rotated = await sign(k2);
    expect(await status(rotated)).toBe(401);
    published = [k1, k2];
    await eventually(
      () => status(rotated),
      (s) => s === 200,
    );
    expect(await status(before)).toBe(200);
    published = [k2];
    await eventually(
      () => status(before),
      (s) => s === 401,
    );
    expect(await status(rotated)).toBe(200);
  });
});

describe('OIDC claims', () => {
  it('maps the username from a configured claim', async () => {
    const other = await startAuthBed({
      BEEKEEPER_OIDC_ISSUER: issuer,
      BEEKEEPER_OIDC_AUDIENCE: 'beekeeper',
      BEEKEEPER_OIDC_USERNAME_CLAIM: 'email',
    });
    try {
      expect((await other.get('/v1/hubs', await sign(published[0]!))).status).toBe(200);
      expect(other.principals()).toEqual(['alice@example.com']);
      // A token without that claim names nobody.
      expect((await other.get('/v1/hubs', await sign(published[0]!, { email: undefined }))).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});
