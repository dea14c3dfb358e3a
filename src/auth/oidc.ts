// OIDC sign-in: a JWT bearer token from the configured issuer, validated with `jose` against the issuer's keys:
// signature, iss, aud, exp (required), nbf, with the configured clock skew. The keys come from jwksUri or from the
// issuer's discovery document; an unknown key id fetches them again (key rotation), at most once per cooldown, so a
// flood of made-up key ids cannot turn into a flood of requests to the identity provider.
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Identity } from './caller.js';
import type { Authenticator } from './static-tokens.js';

export type OidcSettings = NonNullable<Config['auth']['oidc']>;

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/** The issuer's jwks_uri from `<issuer>/.well-known/openid-configuration` (OpenID Connect Discovery 1.0 §4). */
async function discoverJwksUri(issuer: string): Promise<string> {
  const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const res = await fetch(url, { signal: AbortSignal.timeout(5000), headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const doc = (await res.json()) as { issuer?: unknown; jwks_uri?: unknown };
  // §4.3: the document's issuer must be the one configured.
  if (doc.issuer !== issuer) throw new Error(`${url} names issuer ${JSON.stringify(doc.issuer)}`);
  if (typeof doc.jwks_uri !== 'string') throw new Error(`${url} has no jwks_uri`);
  return doc.jwks_uri;
}

function claimText(payload: JWTPayload, claim: string): string | undefined {
  const v = payload[claim];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

function claimList(payload: JWTPayload, claim: string): string[] {
  const v = payload[claim];
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((g): g is string => typeof g === 'string') : [];
}

export function oidcAuthenticator(settings: OidcSettings, log: Logger): Authenticator {
  const cacheMs = settings.jwksCacheSeconds * 1000;
  let keys: Promise<KeySet> | undefined;
  const keySet = () => {
    keys ??= (settings.jwksUri ? Promise.resolve(settings.jwksUri) : discoverJwksUri(settings.issuer)).then((uri) =>
      createRemoteJWKSet(new URL(uri), { cacheMaxAge: cacheMs, cooldownDuration: Math.min(30_000, cacheMs) }),
    );
    // A failed discovery is tried again by the next request rather than remembered.
    keys.catch(() => (keys = undefined));
    return keys;
  };
  return async (token): Promise<Identity | undefined> => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await keySet(), {
        issuer: settings.issuer,
        audience: settings.audience,
        clockTolerance: settings.clockSkewSeconds,
        requiredClaims: ['exp'],
      }));
    } catch (err) {
      // The reason goes to the log, never to the caller; neither sees the token.
      const code = (err as { code?: string }).code;
      const fetching = code === 'ERR_JWKS_TIMEOUT' || code === undefined;
      if (fetching) log.warn({ err: (err as Error).message }, 'OIDC keys unavailable');
      else log.debug({ code }, 'OIDC token refused');
      return undefined;
    }
    const name = claimText(payload, settings.usernameClaim);
    if (!name) {
      log.debug({ claim: settings.usernameClaim }, 'OIDC token refused: no username claim');
      return undefined;
    }
    return {
      name,
      via: 'oidc',
      groups: claimList(payload, settings.groupsClaim),
      subject: { kind: 'User', name },
    };
  };
}
