// Redis seed addresses (Sentinel, Cluster): `host:port,...` in the environment, `host:port` strings or
// `{host, port}` mappings in the file, both read into a list of HostPortSchema.
import { setting } from './settings.js';
import { quoted, splitList, type ListInput } from './shorthand.js';

/** The Redis prefix when none is configured; embedded mode replaces it with one of its own (see system/embedded-prefix.ts). */
export const DEFAULT_REDIS_PREFIX = setting('redis.prefix').schema.default as string;

const HOST_PORT = /^\[?([^\]]+?)\]?:(\d{1,5})$/;

/** From the environment (a string) or the file (a list, whose strings are read the same way). */
export function parseHostPorts(raw: unknown): ListInput {
  const items = typeof raw === 'string' ? splitList(raw) : Array.isArray(raw) ? (raw as unknown[]) : undefined;
  const problems = new Map<number, string>();
  if (items === undefined) return { value: raw, problems, subject: () => '' };
  const value = items.map((item, i): unknown => {
    if (typeof item !== 'string') return item;
    const m = HOST_PORT.exec(item.trim());
    if (m) return { host: m[1], port: Number(m[2]) };
    problems.set(i, `${JSON.stringify(item)} is not host:port`);
    return item;
  });
  return { value, problems, subject: quoted(items.map(String)) };
}
