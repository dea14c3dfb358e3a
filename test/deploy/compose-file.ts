// The compose files as Docker Compose reads them, without Docker: YAML with merge keys (`<<: *anchor`), several
// files merged in order (mappings merged, sequences appended, `!override` replacing), then `${VAR}` interpolation
// of every value, refusing as Compose does when a `${VAR:?message}` is unset.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPair, isScalar, parseDocument, visit } from 'yaml';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Healthcheck {
  test: string[];
}
export interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  profiles?: string[];
  ports?: string[];
  volumes?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string; restart?: boolean; required?: boolean }>;
  healthcheck?: Healthcheck;
  deploy?: { replicas?: number };
  read_only?: boolean;
  tmpfs?: string[];
}
export interface ComposeModel {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

type Tree = unknown;

/** One file's YAML (merge keys resolved) and the paths its `!override` tags mark. */
export function readComposeFile(file: string): { tree: Tree; overrides: Set<string> } {
  const doc = parseDocument(readFileSync(join(ROOT, file), 'utf8'), { merge: true });
  if (doc.errors.length) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
  const overrides = new Set<string>();
  visit(doc, {
    Collection(_, node, path) {
      if (node.tag !== '!override') return;
      const keys = path.filter(isPair).map((p) => String(isScalar(p.key) ? p.key.value : p.key));
      overrides.add(keys.join('.'));
      node.tag = undefined;
    },
  });
  return { tree: doc.toJS({ maxAliasCount: -1 }), overrides };
}

function merge(base: Tree, over: Tree, path: string, overrides: Set<string>): Tree {
  if (overrides.has(path)) return over;
  if (Array.isArray(base) && Array.isArray(over)) return [...base, ...over];
  if (isObject(base) && isObject(over)) {
    const out: Record<string, Tree> = { ...base };
    for (const [k, v] of Object.entries(over))
      out[k] = k in base ? merge(base[k], v, path ? `${path}.${k}` : k, overrides) : v;
    return out;
  }
  return over;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Compose's interpolation of one value: $$, $VAR, ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?err}, ${VAR?err}. */
export function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$(?:(\$)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (_, dollar: string | undefined, braced: string | undefined, op: string | undefined, arg: string, bare) => {
      if (dollar) return '$';
      const name = (braced ?? bare) as string;
      const value = env[name];
      const missing = op?.startsWith(':') ? value === undefined || value === '' : value === undefined;
      if (op?.endsWith('?') && missing) throw new Error(`required variable ${name} is missing a value: ${arg}`);
      if (op?.endsWith('-') && missing) return arg;
      return value ?? '';
    },
  );
}

function interpolateTree(tree: Tree, env: Record<string, string | undefined>): Tree {
  if (typeof tree === 'string') return interpolate(tree, env);
  if (Array.isArray(tree)) return tree.map((v) => interpolateTree(v, env));
  if (isObject(tree)) return Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, interpolateTree(v, env)]));
  return tree;
}

/** `docker compose -f a -f b config`: the files merged in order, then interpolated with `env`. */
export function loadCompose(files: string[], env: Record<string, string | undefined>): ComposeModel {
  let tree: Tree = {};
  for (const file of files) {
    const { tree: next, overrides } = readComposeFile(file);
    tree = merge(tree, next, '', overrides);
  }
  // x- extension fields are YAML only (anchors); Compose ignores them.
  const model = interpolateTree(tree, env) as ComposeModel & Record<string, unknown>;
  for (const key of Object.keys(model)) if (key.startsWith('x-')) delete model[key];
  return model;
}

/** The services `docker compose --profile p ... up` starts: those without profiles, and those in an active one. */
export function activeServices(model: ComposeModel, profiles: string[]): [string, Service][] {
  return Object.entries(model.services).filter(
    ([, s]) => !s.profiles?.length || s.profiles.some((p) => profiles.includes(p)),
  );
}

/** The host port of a short-syntax port, `[ip:]host:container`; one port on two addresses still collides. */
export function publishedPort(spec: string): number | undefined {
  const parts = spec.split(':');
  return parts.length < 2 ? undefined : Number(parts.at(-2));
}
