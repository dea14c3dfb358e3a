// Static tokens from a file (auth.tokensFile), re-read when it changes: a change event on its directory (a mounted
// Secret is swapped by renaming a symlink next to the file, so the file itself sees no event) and a slow poll for
// file systems that send none. A file that cannot be read or checked keeps the last good set and logs why; only the
// first read is fatal, because a server that starts without its tokens would refuse everyone.
import { createHash } from 'node:crypto';
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Logger } from '../logger.js';
import type { TokenTable } from './static-tokens.js';
import { parseTokenList } from './token-list.js';

export interface TokensFileDeps {
  path: string;
  table: TokenTable;
  log: Logger;
  /** The slow poll's period. */
  intervalMs: number;
}

export class TokensFileError extends Error {
  override name = 'TokensFileError';
}

const fingerprint = (text: string) => createHash('sha256').update(text).digest('hex');

export function watchTokensFile({ path, table, log, intervalMs }: TokensFileDeps): { close(): void } {
  const source = `file:${path}`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new TokensFileError(
      `tokens file ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  const first = parseTokenList(text);
  if ('problems' in first) throw new TokensFileError(`tokens file ${path}: ${first.problems.join('; ')}`);
  table.set(source, first.tokens);
  let seen = fingerprint(text);
  log.info({ path, tokens: first.tokens.length }, 'tokens file read');

  let reading = false;
  let again = false;
  const reload = async () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        let now: string;
        try {
          now = await readFile(path, 'utf8');
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code ?? 'error';
          log.error({ path, code }, 'tokens file unreadable: keeping the last good tokens');
          continue;
        }
        const print = fingerprint(now);
        if (print === seen) continue;
        seen = print;
        const result = parseTokenList(now);
        if ('problems' in result) {
          log.error({ path, problems: result.problems }, 'tokens file invalid: keeping the last good tokens');
          continue;
        }
        table.set(source, result.tokens);
        log.info({ path, tokens: result.tokens.length }, 'tokens file changed: tokens replaced');
      } while (again);
    } finally {
      reading = false;
    }
  };

  let watcher: FSWatcher | undefined;
  try {
    const name = basename(path);
    watcher = watch(dirname(path), (_event, file) => {
      if (!file || file === name || file.startsWith('..')) void reload();
    });
    watcher.on('error', (err) => log.warn({ path, err: err.message }, 'tokens file watch failed: polling only'));
  } catch (err) {
    log.warn({ path, err: (err as Error).message }, 'cannot watch the tokens file: polling only');
  }
  const timer = setInterval(() => void reload(), intervalMs);
  timer.unref();
  return {
    close() {
      clearInterval(timer);
      watcher?.close();
    },
  };
}
