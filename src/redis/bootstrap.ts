// Where all-in-one finds its Redis: the configured one; else 127.0.0.1:6379; else (all-in-one only) a private
// redis-server for the life of the process, so that `npm start` works on a laptop with nothing set up.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { RedisConfig } from '../config.js';
import { DEFAULT_REDIS_URL } from './connect.js';

export interface RedisBootstrap {
  redis: RedisConfig;
  /** Set when a private redis-server was started; stops it and removes its directory. */
  close(): Promise<void>;
  /** `configured`, `local` (found on 127.0.0.1:6379) or `private`. */
  origin: 'configured' | 'local' | 'private';
}

export class RedisMissing extends Error {
  constructor(detail: string) {
    super(
      `${detail}\nBeekeeper needs Redis 6.2 or newer. Either start one (Debian/Ubuntu: sudo apt-get install -y redis-server; ` +
        'macOS: brew install redis && brew services start redis; or docker run -d -p 6379:6379 redis:7) ' +
        'or point REDIS_URL at one (e.g. REDIS_URL=redis://host:6379).',
    );
    this.name = 'RedisMissing';
  }
}

/** Where Redis is, for messages: never the password. */
export function whereIs(cfg: RedisConfig): string {
  if (cfg.cluster) return `cluster ${cfg.cluster.nodes.map((n) => `${n.host}:${n.port}`).join(',')}`;
  if (cfg.sentinel)
    return `sentinel ${cfg.sentinel.name} via ${cfg.sentinel.sentinels.map((n) => `${n.host}:${n.port}`).join(',')}`;
  try {
    const url = new URL(cfg.url ?? DEFAULT_REDIS_URL);
    return `${url.protocol}//${url.host}`;
  } catch {
    return 'the configured URL';
  }
}

export async function pingRedis(url: string, timeoutMs = 1000): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    connectTimeout: timeoutMs,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export async function bootstrapRedis(
  cfg: RedisConfig,
  opts: {
    allowPrivate: boolean;
    /** Where to look before starting one (tests point it elsewhere). */ localUrl?: string;
  },
): Promise<RedisBootstrap> {
  const none = async () => undefined;
  const local = opts.localUrl ?? DEFAULT_REDIS_URL;
  if (cfg.url || cfg.sentinel || cfg.cluster) return { redis: cfg, close: none, origin: 'configured' };
  if (await pingRedis(local)) return { redis: { ...cfg, url: local }, close: none, origin: 'local' };
  if (!opts.allowPrivate) throw new RedisMissing(`No Redis answers on ${local} and REDIS_URL is not set.`);
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) {
    throw new RedisMissing(
      `No Redis answers on ${local}, REDIS_URL is not set, and there is no redis-server binary to start one.`,
    );
  }
  return startPrivateRedis(cfg);
}

async function startPrivateRedis(cfg: RedisConfig): Promise<RedisBootstrap> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'beekeeper-redis-'));
  // Nothing durable lives in Redis (ARCHITECTURE.md, principle 1), so no snapshots and no AOF.
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    {
      stdio: 'ignore',
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  const close = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) break;
    if (await pingRedis(url, 200)) return { redis: { ...cfg, url }, close, origin: 'private' };
    await new Promise((r) => setTimeout(r, 50));
  }
  await close();
  throw new RedisMissing(`A private redis-server on port ${port} did not start.`);
}

/** A port free on loopback right now (the OS picks it), for a redis-server to listen on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}
