// The hub-health tests' bed parts: a TCP forwarder that partitions a hub, configuration for one or two simulated
// hubs on private Redis keys, and reading /metrics samples.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { loadConfig, withEmbeddedHub, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { closeRedis, createRedis, waitReady } from '../../src/redis/connect.js';
import type { Simulator } from '../../src/sim/simulator.js';
import type { System } from '../../src/system.js';

export const log = createLogger({ level: 'silent' });

/** A TCP forwarder in front of a hub: `cut()` is a network partition, `restore()` heals it on the same port. */
export async function partitionable(target: string) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let listenPort = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = connect(Number(port), hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
        }
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
      server.listen(listenPort, '127.0.0.1', () => {
        listenPort = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  await open();
  return {
    url: () => `http://127.0.0.1:${listenPort}`,
    async cut() {
      await new Promise<void>((resolve) => {
        server!.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    restore: open,
  };
}

/** A config whose hubs are the simulator's, `west` reached through `westUrl` when given. */
export function configFor(sim: Simulator, prefix: string, westUrl?: string): Config {
  const base = loadConfig({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BEEKEEPER_REDIS_PREFIX: prefix,
    BEEKEEPER_AUTH_OPEN: 'true',
    BEEKEEPER_RESYNC_INTERVAL_SECONDS: '3600',
  });
  const east = withEmbeddedHub(base, { name: 'east', kubeconfigData: kubeconfigVia(sim, 'east') });
  return sim.hubs.length === 1
    ? east
    : {
        ...east,
        hubs: [...east.hubs, { ...east.hubs[0]!, name: 'west', kubeconfigData: kubeconfigVia(sim, 'west', westUrl) }],
      };
}

/** The simulator's kubeconfig with `hub` current, reached at `server` when given. */
export function kubeconfigVia(sim: Simulator, hub: string, server?: string): string {
  const kc = sim.kubeconfig() as { clusters: Array<{ name: string; cluster: { server: string } }> };
  for (const c of kc.clusters) if (server && c.name === hub) c.cluster.server = server;
  return JSON.stringify({ ...kc, 'current-context': hub });
}

export async function dropKeys(config: Config) {
  const redis = createRedis(config.redis, 'producer');
  await waitReady(redis);
  const keys = await redis.keys(`${config.redis.prefix}*`);
  if (keys.length) await redis.del(...keys);
  await closeRedis(redis);
}

export const scrape = async (system: System) => (await system.app.inject({ url: '/metrics' })).body;
export const sample = (body: string, series: string) => {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};
