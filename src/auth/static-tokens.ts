// Static API tokens: for CI and service accounts. Only their SHA-256 digests are held (config auth.tokens, the
// tokens file, the tokens Secret); a presented token is hashed and compared in constant time, so neither a token
// nor its length leaks through timing. The table is replaced per source while the server runs: that is rotation
// without a restart (add the new entry, both work, remove the old).
import { hash, timingSafeEqual } from 'node:crypto';
import type { StaticToken } from '../config.js';
import type { Identity } from './caller.js';

/** Checks a presented bearer secret; undefined when it is not one of these tokens. */
export type Authenticator = (token: string) => Promise<Identity | undefined> | Identity | undefined;

// The one-shot hash: no Hash object per request (a third of the check's CPU, issue 14); the same digest.
const digest = (s: string) => hash('sha256', s, 'buffer');

export function tokenIdentity(t: Pick<StaticToken, 'name' | 'team' | 'role'>): Identity {
  const role = t.role ?? 'platform-admin';
  return {
    name: t.name,
    via: 'token',
    groups: [],
    subject: { kind: 'User', name: t.name },
    token: { ...(t.team ? { team: t.team } : {}), role },
  };
}

interface Known {
  digest: Buffer;
  identity: Identity;
}

const known = (tokens: readonly StaticToken[]): Known[] =>
  tokens.map((t) => ({ digest: Buffer.from(t.tokenSha256, 'hex'), identity: tokenIdentity(t) }));

function lookup(entries: readonly Known[], token: string): Identity | undefined {
  const sent = digest(token);
  // Every entry is compared, so the time taken does not say which one matched.
  let found: Identity | undefined;
  for (const k of entries) if (timingSafeEqual(k.digest, sent)) found = k.identity;
  return found;
}

export function staticTokens(tokens: readonly StaticToken[]): Authenticator {
  const entries = known(tokens);
  return (token) => lookup(entries, token);
}

/** Token entries from several sources (configuration, file, Secret), each replaced as a whole when it changes. */
export interface TokenTable {
  set(source: string, tokens: readonly StaticToken[]): void;
  /** How many entries all sources hold. */
  size(): number;
  authenticate: Authenticator;
}

export function createTokenTable(): TokenTable {
  const sources = new Map<string, Known[]>();
  let all: Known[] = [];
  return {
    set(source, tokens) {
      sources.set(source, known(tokens));
      all = [...sources.values()].flat();
    },
    size: () => all.length,
    authenticate: (token) => lookup(all, token),
  };
}
