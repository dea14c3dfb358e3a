// `npm test` must work on a fresh machine: use REDIS_URL or 127.0.0.1:6379 when it answers, otherwise start a
// private redis-server for the run (the tests talk to a real Redis, never a mock).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.write('PING\r\n');
    });
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

let child: ChildProcess | undefined;
let dir: string | undefined;

export async function setup(): Promise<void> {
  if (process.env.REDIS_URL) return;
  if (await answers('127.0.0.1', 6379)) {
    process.env.REDIS_URL = 'redis://127.0.0.1:6379';
    return;
  }
  const port = 16379 + Math.floor(Math.random() * 1000);
  dir = mkdtempSync(join(tmpdir(), 'beekeeper-test-redis-'));
  child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    {
      stdio: 'ignore',
    },
  );
  child.once('error', () => undefined);
  for (let i = 0; i < 50; i++) {
    if (await answers('127.0.0.1', port)) {
      process.env.REDIS_URL = `redis://127.0.0.1:${port}`;
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    'No Redis answers on 127.0.0.1:6379 and redis-server could not be started: install it (apt-get install redis-server) or set REDIS_URL.',
  );
}

export async function teardown(): Promise<void> {
  child?.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
}
