// A drill's own redis-server on a free port, in the drill's directory: the drills flush, stop and restart it, which
// they must never do to the Redis the other tests share. `aof` keeps an append-only file (fsync every second), so a
// restart comes back with what was written, as production runs it (docs/platform.md, "Redis in production").
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort, pingRedis } from '../../src/redis/bootstrap.js';
import { startProcess, type DrillProcess } from './child-process.js';

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** FLUSHALL: Redis forgets everything at once. */
  flushAll(): Promise<void>;
  /** Down: a clean shutdown (SIGTERM; with AOF the file is synced), or with `crash` a SIGKILL. */
  stop(opts?: { crash?: boolean }): Promise<void>;
  /** Up again on the same port and directory. */
  start(): Promise<void>;
  restart(opts?: { crash?: boolean }): Promise<void>;
  running(): boolean;
  close(): Promise<void>;
}

export async function startRedisServer(opts: { dir: string; aof?: boolean }): Promise<RedisServer> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const persistence = opts.aof ? ['--appendonly', 'yes', '--appendfsync', 'everysec'] : ['--appendonly', 'no'];
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    opts.dir,
    '--save',
    '',
    ...persistence,
    '--maxmemory-policy',
    'noeviction',
  ];
  let proc: DrillProcess | undefined;

  const start = async () => {
    if (proc?.running()) return;
    proc = startProcess({
      name: 'redis-server',
      command: 'redis-server',
      args,
      env: process.env,
      cwd: opts.dir,
      logFile: join(opts.dir, 'redis.log'),
      readyWhen: (line) => line.includes('Ready to accept connections'),
    });
    await proc.ready;
    // The log line comes before the AOF is loaded on some versions: answer PING before anyone is told it is up.
    for (let i = 0; i < 100 && !(await pingRedis(url, 200)); i++) await new Promise((r) => setTimeout(r, 50));
  };
  const stop = async (how: { crash?: boolean } = {}) => {
    if (!proc?.running()) return;
    await proc.kill(how.crash ? 'SIGKILL' : 'SIGTERM');
  };

  await start();
  return {
    url,
    port,
    async flushAll() {
      const client = new Redis(url, { maxRetriesPerRequest: 1 });
      try {
        await client.flushall();
      } finally {
        client.disconnect();
      }
    },
    stop,
    start,
    async restart(how) {
      await stop(how);
      await start();
    },
    running: () => Boolean(proc?.running()),
    close: () => stop({ crash: true }),
  };
}
