// The sign-in settings as the rest of Beekeeper sees them: plain tokens hashed (the token itself is dropped here,
// so it is never held past loading), the tokens Secret split into its parts, and OIDC and TokenReview present only
// when configured.
import { createHash } from 'node:crypto';
import type { Static } from 'typebox';
import type { ConfigSchema } from './config-schema.js';
import { TOKENS_SECRET } from './schema.js';
import type { ApiTokenSchema } from './team-schemas.js';
import type { Settings } from './validate.js';

type AuthConfig = Static<typeof ConfigSchema>['auth'];
type StaticToken = AuthConfig['tokens'][number];

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** An entry (token or tokenSha256, rules.ts says exactly one) as kept: the digest, lowercase. */
export function hashedEntry(t: Static<typeof ApiTokenSchema>): StaticToken {
  return {
    name: t.name,
    tokenSha256: t.tokenSha256 !== undefined ? t.tokenSha256.toLowerCase() : sha256Hex(t.token ?? ''),
    ...(t.team !== undefined ? { team: t.team } : {}),
    ...(t.role !== undefined ? { role: t.role } : {}),
  };
}

export function authConfig(a: Settings['auth']): AuthConfig {
  const secret = a.tokensSecret ? TOKENS_SECRET.exec(a.tokensSecret) : null;
  const { oidc, tokenReview } = a;
  return {
    tokens: (a.tokens ?? []).map(hashedEntry),
    open: a.open,
    platformAdmins: { users: a.platformAdmins.users ?? [], groups: a.platformAdmins.groups ?? [] },
    ...(a.tokensFile ? { tokensFile: a.tokensFile } : {}),
    ...(secret ? { tokensSecret: { hub: secret[1]!, namespace: secret[3]!, name: secret[5]! } } : {}),
    reloadSeconds: a.reloadSeconds,
    ...(oidc.issuer && oidc.audience
      ? {
          oidc: {
            issuer: oidc.issuer,
            audience: oidc.audience,
            ...(oidc.jwksUri ? { jwksUri: oidc.jwksUri } : {}),
            usernameClaim: oidc.usernameClaim,
            groupsClaim: oidc.groupsClaim,
            clockSkewSeconds: oidc.clockSkewSeconds,
            jwksCacheSeconds: oidc.jwksCacheSeconds,
          },
        }
      : {}),
    ...(tokenReview.hub
      ? {
          tokenReview: {
            hub: tokenReview.hub,
            ...(tokenReview.audiences ? { audiences: tokenReview.audiences } : {}),
            cacheSeconds: tokenReview.cacheSeconds,
          },
        }
      : {}),
    metricsRequireToken: a.metricsRequireToken,
  };
}

/** Whether any way of signing in is configured (tokens, a tokens file or Secret, OIDC, TokenReview). */
export const signInConfigured = (a: AuthConfig): boolean =>
  a.tokens.length > 0 || !!a.tokensFile || !!a.tokensSecret || !!a.oidc || !!a.tokenReview;
