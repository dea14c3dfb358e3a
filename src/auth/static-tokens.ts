// Static API tokens (config auth.tokens): for CI and service accounts. Compared as SHA-256 digests with a
// constant-time comparison, so neither a token nor its length leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiToken } from '../config.js';
import type { Identity } from './caller.js';

/** Checks a presented bearer secret; undefined when it is not one of these tokens. */
export type Authenticator = (token: string) => Promise<Identity | undefined> | Identity | undefined;

const digest = (s: string) => createHash('sha256').update(s).digest();

export function tokenIdentity(t: Pick<ApiToken, 'name' | 'team' | 'role'>): Identity {
  const role = t.role ?? 'platform-admin';
  return {
    name: t.name,
    via: 'token',
    groups: [],
    subject: { kind: 'User', name: t.name },
    token: { ...(t.team ? { team: t.team } : {}), role },
  };
}

export function staticTokens(tokens: readonly ApiToken[]): Authenticator {
  const known = tokens.map((t) => ({ digest: digest(t.token), identity: tokenIdentity(t) }));
  return (token) => {
    const sent = digest(token);
    // Every entry is compared, so the time taken does not say which one matched.
    let found: Identity | undefined;
    for (const k of known) if (timingSafeEqual(k.digest, sent)) found = k.identity;
    return found;
  };
}
