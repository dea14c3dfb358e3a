// What every command gets: the API client, output streams, and a signal that fires on SIGINT, SIGTERM or SIGHUP.
import { constants } from 'node:os';
import type { Client } from './client.js';

export const EXIT = { ok: 0, failure: 1, usage: 2, timeout: 3 } as const;

/**
 * The shell's code for "ended by signal N", 128 + N (130 SIGINT, 143 SIGTERM, 129 SIGHUP), so a script that
 * forwards a signal sees it come back. The entry file aborts `signal` with the signal's name as the reason.
 */
export function interruptedCode(signal: AbortSignal): number {
  const name = String(signal.reason) as keyof typeof constants.signals;
  return 128 + (constants.signals[name] ?? constants.signals.SIGINT);
}

export interface CliContext {
  client: Client;
  json: boolean;
  /** Results: stdout. */
  out(text: string): void;
  /** Progress and errors: stderr, so `--json` stdout stays parseable. */
  err(text: string): void;
  writeSecretFile(path: string, text: string): Promise<void>;
  /** Fires on SIGINT, SIGTERM or SIGHUP; its reason is the signal's name. */
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
