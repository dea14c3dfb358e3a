// Redis settings: one server by URL, Sentinel or Cluster, and the key prefix BullMQ and Beekeeper share.
import { readHostPorts, readString, type Issues, type Source } from './fields.js';
import { setting } from './schema.js';

export interface HostPort {
  host: string;
  port: number;
}

export interface RedisConfig {
  /** A single server (`redis://` or `rediss://`). Absent: 127.0.0.1:6379, and all-in-one may start a private one. */
  url?: string;
  /** `password` authenticates to the sentinels themselves (the data password is `password` below). */
  sentinel?: { sentinels: HostPort[]; name: string; password?: string };
  cluster?: { nodes: HostPort[] };
  /** For Sentinel or Cluster (a single server carries it in the URL). */
  password?: string;
  /** BullMQ prefix and key prefix. A `{hash tag}` keeps every key in one Redis Cluster slot, as BullMQ requires. */
  prefix: string;
}

const NO_COLON = /^[^\s:]+$/;

/** The Redis prefix when none is configured; embedded mode replaces it with one of its own (see system/embedded-prefix.ts). */
export const DEFAULT_REDIS_PREFIX = setting('redis.prefix').schema.default as string;

export function readRedis(pick: (path: string) => Source | undefined, issues: Issues): RedisConfig {
  const urlSrc = pick('redis.url');
  const url = urlSrc
    ? readString(urlSrc, issues, {
        fallback: '',
        pattern: /^rediss?:\/\/\S+$/,
        rule: 'a redis:// or rediss:// URL',
        secret: true,
      })
    : undefined;
  const sentinelsSrc = pick('redis.sentinel.sentinels');
  const sentinels = readHostPorts(sentinelsSrc, issues);
  const nameSrc = pick('redis.sentinel.name');
  const nodesSrc = pick('redis.cluster.nodes');
  const nodes = readHostPorts(nodesSrc, issues);
  const password = pick('redis.password')
    ? readString(pick('redis.password'), issues, { fallback: '', secret: true })
    : undefined;
  const sentinelPassword = pick('redis.sentinel.password')
    ? readString(pick('redis.sentinel.password'), issues, { fallback: '', secret: true })
    : undefined;
  const prefixSrc = pick('redis.prefix');
  const prefix = readString(prefixSrc, issues, {
    fallback: DEFAULT_REDIS_PREFIX,
    pattern: NO_COLON,
    rule: 'free of spaces and ":" (BullMQ joins keys with ":")',
  });

  const modes = [urlSrc && 'REDIS_URL', sentinelsSrc && 'sentinel', nodesSrc && 'cluster'].filter(Boolean);
  if (modes.length > 1) issues.add('redis', `choose one of a URL, Sentinel or Cluster (got ${modes.join(' and ')})`);
  if (sentinelsSrc && !nameSrc)
    issues.add('BEEKEEPER_REDIS_SENTINEL_NAME', 'required with Sentinel (the master group name)');
  if (nameSrc && !sentinelsSrc) issues.add(nameSrc.from, 'set only together with the Sentinel addresses');
  if (nodesSrc && !/\{[^{}]+\}/.test(prefix)) {
    issues.add(
      prefixSrc?.from ?? 'BEEKEEPER_REDIS_PREFIX',
      'must contain a {hash tag} with Redis Cluster, e.g. {beekeeper}',
    );
  }
  return {
    ...(url ? { url } : {}),
    ...(sentinelsSrc && nameSrc
      ? {
          sentinel: {
            sentinels,
            name: readString(nameSrc, issues, { fallback: '' }),
            ...(sentinelPassword ? { password: sentinelPassword } : {}),
          },
        }
      : {}),
    ...(nodesSrc ? { cluster: { nodes } } : {}),
    ...(password ? { password } : {}),
    prefix,
  };
}
