// What every command gets: the API client, output streams, and a signal that fires on SIGINT/SIGTERM.
import type { Client } from './client.js';

export const EXIT = { ok: 0, failure: 1, usage: 2, timeout: 3 } as const;

export interface CliContext {
  client: Client;
  json: boolean;
  /** Results: stdout. */
  out(text: string): void;
  /** Progress and errors: stderr, so `--json` stdout stays parseable. */
  err(text: string): void;
  writeSecretFile(path: string, text: string): Promise<void>;
  signal: AbortSignal;
  now(): number;
}

/** Resolves after `ms`, or early (without error) when `signal` fires. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export function printJson(ctx: CliContext, value: unknown): void {
  ctx.out(JSON.stringify(value, null, 2));
}
