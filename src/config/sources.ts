// The raw settings: the environment over the file, each setting remembering where its value came from, so that a
// message names what the operator actually set (`PORT`, `hubs[1].qps (beekeeper.yaml)`). List shorthands of the
// environment, and `host:port` strings in the file, are read into the schema's shape here.
import { readConfigFile } from './file.js';
import { parseHubs } from './hubs.js';
import { parseHostPorts } from './redis.js';
import { SettingsSchema } from './schema.js';
import { SETTINGS, type Annotated } from './settings.js';
import { parseStrings, quoted, splitList, type ListInput } from './shorthand.js';
import { parseTokens } from './tokens.js';

/** Where a setting's value came from: a variable, or the file at this path. */
export type Origin = ({ env: string } | { file: string }) & { list?: ListInput };

export interface Sources {
  /** SettingsSchema's shape, with only what was set (every group present). */
  raw: Record<string, unknown>;
  origins: ReadonlyMap<string, Origin>;
  /** The file's path, when there is one. */
  file?: string;
  /** Problems with the file itself and keys the schema does not know, already worded. */
  fileIssues: string[];
}

const ENV_LISTS: Record<string, (text: string) => ListInput> = {
  hubs: parseHubs,
  'auth.tokens': parseTokens,
  'auth.tokenReview.audiences': (text) => {
    const items = splitList(text);
    return { value: items, problems: new Map(), subject: quoted(items) };
  },
  'redis.sentinel.sentinels': parseHostPorts,
  'redis.cluster.nodes': parseHostPorts,
  'edge.corsOrigins': parseStrings,
  'webhooks.allowCidrs': parseStrings,
};
const FILE_LISTS: Record<string, (raw: unknown) => ListInput> = {
  'redis.sentinel.sentinels': parseHostPorts,
  'redis.cluster.nodes': parseHostPorts,
};

export function readSources(env: Record<string, string | undefined>): Sources {
  const fileIssues: string[] = [];
  const file = readConfigFile(env.BEEKEEPER_CONFIG, (where, reason) => fileIssues.push(`${where}: ${reason}`));
  const raw = groups(SettingsSchema);
  const origins = new Map<string, Origin>();
  for (const { path, schema } of SETTINGS.values()) {
    const text = schema.env ? env[schema.env] : undefined;
    const fromFile = file && schema.fileKey !== false ? file.at(path) : undefined;
    let origin: Origin;
    let value: unknown;
    if (text !== undefined && text !== '') {
      const list = ENV_LISTS[path]?.(text);
      origin = { env: schema.env!, ...(list ? { list } : {}) };
      value = list ? list.value : text;
    } else if (fromFile !== undefined) {
      const list = FILE_LISTS[path]?.(fromFile);
      origin = { file: file!.path, ...(list ? { list } : {}) };
      value = list ? list.value : fromFile;
    } else continue;
    origins.set(path, origin);
    const keys = path.split('.');
    let group = raw;
    for (const key of keys.slice(0, -1)) group = group[key] as Record<string, unknown>;
    group[keys.at(-1)!] = value;
  }
  return { raw, origins, fileIssues, ...(file ? { file: file.path } : {}) };
}

/** An empty object for every group of settings, so that defaults can be filled in below them. */
function groups(schema: Annotated): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).flatMap(([key, child]) =>
      child.properties && !child.env ? [[key, groups(child)]] : [],
    ),
  );
}

/** `hubs[1].qps (beekeeper.yaml):` or `BEEKEEPER_HUBS: "east=": kubeconfig`: the start of a message about `path`. */
export function locate(sources: Sources, path: readonly string[], bare = false): string {
  const { origins } = sources;
  let at = path.length;
  while (at > 0 && !SETTINGS.has(path.slice(0, at).join('.'))) at--;
  const dotted = at > 0 ? path.slice(0, at).join('.') : '';
  const rest = path.slice(at);
  const origin = origins.get(dotted);
  const inside = rest.map((k) => (/^\d+$/.test(k) ? `[${k}]` : `.${k}`)).join('');
  if (origin && 'env' in origin) {
    const subject = rest.length > 0 && !bare ? origin.list?.subject(Number(rest[0]), rest.slice(1).join('.')) : '';
    return `${origin.env}:${subject ? ` ${subject}` : ''}`;
  }
  if (origin) return `${dotted}${inside} (${origin.file}):`;
  // Not set (a rule asks for it): name its variable, and its file key when there is a file.
  const env = at > 0 ? SETTINGS.get(dotted)!.schema.env : undefined;
  if (!env) return `${path.join('.')}:`;
  return sources.file ? `${env} or ${dotted} (${sources.file}):` : `${env}:`;
}

/** A path's place in the schema's order (list entries by index), so that problems are listed as the schema reads. */
export function rank(path: readonly string[]): number[] {
  let node: Annotated | undefined = SettingsSchema;
  return path.map((key) => {
    if (node?.properties) {
      const keys = Object.keys(node.properties);
      node = node.properties[key];
      return keys.indexOf(key);
    }
    node = node?.items;
    return Number(key) || 0;
  });
}
