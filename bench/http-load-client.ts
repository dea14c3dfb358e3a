// Runs bench/http-load.ts (a closed-loop HTTP client in its own process) and returns what it measured: the one way
// reads.ts and http-floor.ts load a server.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadResult {
  count: number;
  errors: number;
  p50: number;
  p99: number;
  durationMs: number;
  /** The client's own CPU (ms). */
  cpuMs: number;
}

export interface LoadRequest {
  origin: string;
  /** Sent in turn, cycling. */
  paths: string[];
  headers?: Record<string, string>;
  connections: number;
  durationMs: number;
  /** Stop after this many requests (a warm-up pass) even before durationMs. */
  requests?: number;
}

export function runLoad(request: LoadRequest): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./http-load.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // Over IPC, not argv: 10,000 paths exceed the kernel's limit for one argument.
    child.send(request);
    child.once('message', (m) => resolve(m as LoadResult));
    child.once('error', reject);
    child.once('exit', (code) => code !== 0 && reject(new Error(`load generator exited ${code}`)));
  });
}
