// Sign-in by Kubernetes TokenReview: a hub's API server says whose token it is, so CI running in a pod signs in with
// its ServiceAccount token and needs no secret of Beekeeper's. Answers, yes and no, are remembered briefly, keyed by
// the token's SHA-256 (never the token), so a busy CI job does not send a review per request; a failed review (the
// hub unreachable) is not remembered.
import { createHash } from 'node:crypto';
import type { TokenReviewStatus } from '../kube/token-review.js';
import type { Logger } from '../logger.js';
import type { Identity } from './caller.js';
import type { Authenticator } from './static-tokens.js';

export interface TokenReviewDeps {
  review(token: string, audiences?: readonly string[]): Promise<TokenReviewStatus>;
  /** Audiences the token must be for (the hub's own when absent). */
  audiences?: readonly string[];
  cacheMs: number;
  now: () => number;
  log: Logger;
  /** Most answers remembered at once; the oldest go first. */
  maxEntries?: number;
}

const SERVICE_ACCOUNT = /^system:serviceaccount:([^:]+):([^:]+)$/;

export function identityOf(status: TokenReviewStatus, audiences?: readonly string[]): Identity | undefined {
  const username = status.user?.username;
  if (!status.authenticated || !username) return undefined;
  // The API server may authenticate a token for other audiences than asked; the client must check (TokenReview docs).
  if (audiences?.length && !(status.audiences ?? []).some((a) => audiences.includes(a))) return undefined;
  const sa = SERVICE_ACCOUNT.exec(username);
  return {
    name: username,
    via: 'serviceaccount',
    groups: status.user?.groups ?? [],
    subject: sa ? { kind: 'ServiceAccount', namespace: sa[1]!, name: sa[2]! } : { kind: 'User', name: username },
  };
}

export function tokenReviewAuthenticator(deps: TokenReviewDeps): Authenticator {
  const { cacheMs, now, log, maxEntries = 10_000 } = deps;
  const answers = new Map<string, { identity: Identity | undefined; until: number }>();
  return async (token) => {
    const key = createHash('sha256').update(token).digest('hex');
    const cached = answers.get(key);
    if (cached && cached.until > now()) return cached.identity;
    answers.delete(key);
    let status: TokenReviewStatus;
    try {
      status = await deps.review(token, deps.audiences);
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'TokenReview failed');
      return undefined;
    }
    const identity = identityOf(status, deps.audiences);
    if (!identity) log.debug({ error: status.error }, 'TokenReview: not authenticated');
    if (cacheMs > 0) {
      if (answers.size >= maxEntries) answers.delete(answers.keys().next().value!);
      answers.set(key, { identity, until: now() + cacheMs });
    }
    return identity;
  };
}
