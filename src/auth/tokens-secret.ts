// Static tokens from a Secret on a hub (auth.tokensSecret, key `tokens.yaml`), re-read every reloadSeconds. Until
// the first good read the set is empty (the Secret may be created after Beekeeper starts); after that, a missing or
// invalid Secret keeps the last good set and logs why.
import type { Logger } from '../logger.js';
import type { TokenTable } from './static-tokens.js';
import { parseTokenList } from './token-list.js';

export const TOKENS_SECRET_KEY = 'tokens.yaml';

export interface TokensSecretDeps {
  /** `hub/namespace/name`, for logs. */
  where: string;
  /** The Secret's `tokens.yaml`, decoded; undefined when the Secret or the key is missing. */
  read(): Promise<string | undefined>;
  table: TokenTable;
  log: Logger;
  intervalMs: number;
}

export function watchTokensSecret({ where, read, table, log, intervalMs }: TokensSecretDeps): {
  ready: Promise<void>;
  close(): void;
} {
  const source = `secret:${where}`;
  let seen: string | undefined;
  let closed = false;
  const reload = async () => {
    let text: string | undefined;
    try {
      text = await read();
    } catch (err) {
      log.error(
        { secret: where, err: (err as Error).message },
        'tokens Secret unreadable: keeping the last good tokens',
      );
      return;
    }
    if (text === undefined) {
      log.error(
        { secret: where, key: TOKENS_SECRET_KEY },
        'tokens Secret or its key missing: keeping the last good tokens',
      );
      return;
    }
    if (text === seen || closed) return;
    seen = text;
    const result = parseTokenList(text);
    if ('problems' in result) {
      log.error({ secret: where, problems: result.problems }, 'tokens Secret invalid: keeping the last good tokens');
      return;
    }
    table.set(source, result.tokens);
    log.info({ secret: where, tokens: result.tokens.length }, 'tokens Secret read: tokens replaced');
  };
  const ready = reload();
  const timer = setInterval(() => void reload(), intervalMs);
  timer.unref();
  return {
    ready,
    close() {
      closed = true;
      clearInterval(timer);
    },
  };
}
