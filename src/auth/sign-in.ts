// Every way of signing in the configuration asks for, in one place and in order: static tokens (configuration, file,
// Secret), then a JWT whose issuer is the OIDC issuer goes to OIDC, and any other token to TokenReview.
import { decodeJwt } from 'jose';
import type { Config } from '../config.js';
import { signInConfigured } from '../config/auth.js';
import type { TokenReviewStatus } from '../kube/token-review.js';
import type { Logger } from '../logger.js';
import { oidcAuthenticator } from './oidc.js';
import { createTokenTable, type Authenticator } from './static-tokens.js';
import { tokenReviewAuthenticator } from './token-review.js';
import { watchTokensFile } from './tokens-file.js';
import { TOKENS_SECRET_KEY, watchTokensSecret } from './tokens-secret.js';

export interface SignInDeps {
  auth: Config['auth'];
  log: Logger;
  now: () => number;
  /** TokenReview on a hub (src/kube gateway); needed when auth.tokenReview is set. */
  reviewToken?: (hub: string, token: string, audiences?: readonly string[]) => Promise<TokenReviewStatus>;
  /** A Secret's data (base64 values) on a hub, undefined when missing; needed when auth.tokensSecret is set. */
  readSecret?: (ref: { hub: string; namespace: string; name: string }) => Promise<Record<string, string> | undefined>;
}

export interface SignIn {
  /** Empty when nothing is configured (then the edge is open only if auth.open says so). */
  authenticators: Authenticator[];
  /** The first read of the tokens Secret. */
  ready: Promise<void>;
  close(): void;
}

/**
 * The JWT's claims, unverified, only to choose where the token goes; undefined when it is not a JWT (then neither
 * OIDC nor TokenReview is asked: ServiceAccount tokens are JWTs, and random strings cost the hub nothing).
 */
function claimsOf(token: string): { iss?: unknown } | undefined {
  try {
    return decodeJwt(token);
  } catch {
    return undefined;
  }
}

export function createSignIn({ auth, log, now, reviewToken, readSecret }: SignInDeps): SignIn {
  const closers: Array<() => void> = [];
  let ready: Promise<void> = Promise.resolve();
  const authenticators: Authenticator[] = [];
  if (!signInConfigured(auth)) return { authenticators, ready, close: () => {} };
  const intervalMs = auth.reloadSeconds * 1000;

  const table = createTokenTable();
  table.set('config', auth.tokens);
  if (auth.tokensFile) {
    const file = watchTokensFile({ path: auth.tokensFile, table, log, intervalMs });
    closers.push(file.close);
  }
  const secretRef = auth.tokensSecret;
  if (secretRef) {
    if (!readSecret) throw new Error('auth.tokensSecret needs a hub connection');
    const secret = watchTokensSecret({
      where: `${secretRef.hub}/${secretRef.namespace}/${secretRef.name}`,
      read: async () => {
        const value = (await readSecret(secretRef))?.[TOKENS_SECRET_KEY];
        return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
      },
      table,
      log,
      intervalMs,
    });
    closers.push(secret.close);
    ready = secret.ready;
  }
  if (auth.tokens.length > 0 || auth.tokensFile || secretRef) authenticators.push(table.authenticate);

  const oidc = auth.oidc ? oidcAuthenticator(auth.oidc, log.child({ signIn: 'oidc' })) : undefined;
  const tokenReview = auth.tokenReview;
  const review = tokenReview
    ? tokenReviewAuthenticator({
        review: (token, audiences) => {
          if (!reviewToken) throw new Error('auth.tokenReview needs a hub connection');
          return reviewToken(tokenReview.hub, token, audiences);
        },
        ...(tokenReview.audiences ? { audiences: tokenReview.audiences } : {}),
        cacheMs: tokenReview.cacheSeconds * 1000,
        now,
        log: log.child({ signIn: 'tokenreview' }),
      })
    : undefined;
  if (oidc || review) {
    authenticators.push((token) => {
      const claims = claimsOf(token);
      if (!claims) return undefined;
      if (oidc && claims.iss === auth.oidc!.issuer) return oidc(token);
      return review?.(token);
    });
  }
  return { authenticators, ready, close: () => closers.forEach((close) => close()) };
}
