// ioredis clients for a single server, Sentinel or Cluster. Two flavours, following BullMQ's production advice:
// producers (API requests, Queue objects) fail fast while Redis is down so callers get a 503 at once instead of
// hanging; workers and event listeners wait and reconnect forever (`maxRetriesPerRequest: null`, which BullMQ
// requires for blocking commands).
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisConfig } from '../config.js';

export type RedisClient = Redis | Cluster;
export type RedisFlavour = 'producer' | 'worker';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export function createRedis(cfg: RedisConfig, flavour: RedisFlavour, name = `beekeeper-${flavour}`): RedisClient {
  const behaviour: RedisOptions =
    flavour === 'producer'
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectionName: name }
      : { enableOfflineQueue: true, maxRetriesPerRequest: null, connectionName: name };
  // Reconnect with a capped backoff; ioredis retries forever unless this returns null.
  const retryStrategy = (times: number) => Math.min(200 * 2 ** Math.min(times, 6), 5000);
  // After a Sentinel failover a connection can still point at the demoted master, which answers writes with
  // READONLY: reconnect (through the sentinels, to the new master) and resend the command (ioredis README,
  // "Reconnect on error").
  const reconnectOnError = (err: Error) => (err.message.startsWith('READONLY') ? 2 : false);

  if (cfg.cluster) {
    return new Cluster(cfg.cluster.nodes, {
      redisOptions: { ...behaviour, ...(cfg.password ? { password: cfg.password } : {}) },
      clusterRetryStrategy: retryStrategy,
      enableOfflineQueue: behaviour.enableOfflineQueue ?? true,
    });
  }
  if (cfg.sentinel) {
    return new Redis({
      ...behaviour,
      retryStrategy,
      reconnectOnError,
      // Listen for the sentinels' +switch-master and move at once, instead of writing to the demoted master
      // until it drops us (those writes are lost when it resyncs as a replica).
      failoverDetector: true,
      sentinels: cfg.sentinel.sentinels,
      name: cfg.sentinel.name,
      ...(cfg.password ? { password: cfg.password } : {}),
      ...(cfg.sentinel.password ? { sentinelPassword: cfg.sentinel.password } : {}),
    });
  }
  return new Redis(cfg.url ?? DEFAULT_REDIS_URL, { ...behaviour, retryStrategy });
}

/** Resolve once the client is connected, or reject after `timeoutMs` (producers never queue commands offline). */
export async function waitReady(client: RedisClient, timeoutMs = 10_000): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis did not answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = () => {
      cleanup();
      resolve();
    };
    const cleanup = () => {
      clearTimeout(timer);
      client.off('ready', onReady);
    };
    client.on('ready', onReady);
  });
}

/** Close politely (QUIT), or drop the socket if Redis is unreachable. */
export async function closeRedis(client: RedisClient): Promise<void> {
  if (client.status === 'end') return;
  try {
    if (client.status === 'ready') await client.quit();
    else client.disconnect();
  } catch {
    client.disconnect();
  }
}

/**
 * ioredis refusing or losing a command because Redis cannot take it now: unreachable, or saying so itself (as
 * opposed to a bug or a bad command).
 */
export function isRedisDown(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return (
    err.name === 'MaxRetriesPerRequestError' ||
    /Stream isn't writeable|Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|enableOfflineQueue/.test(
      err.message,
    ) ||
    // Redis itself saying "not now": mid-failover (READONLY, MASTERDOWN, CLUSTERDOWN, TRYAGAIN), loading its data, or
    // full (OOM: with maxmemory-policy noeviction, as BullMQ requires, a full Redis refuses writes).
    /^(READONLY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN|LOADING|OOM) /.test(err.message)
  );
}
