// What the logger (logger.ts) removes from every line: secrets by key, wherever they appear in the first four levels
// of what is logged. A walk of our own instead of pino's `redact` paths: with wildcards in the middle of a path
// (`*.*.token`) pino 10's redaction deep-clones the logged object for every line, which cost the request log line
// (one per API request) more than the whole cached GET it records. This walk copies only the objects on the way to
// a secret, so a line without one is logged as it is.

export const CENSOR = '[redacted]';

/** Keys whose value is a secret at any of the first four levels. */
export const SECRET_KEYS: ReadonlySet<string> = new Set([
  'authorization',
  'kubeconfig',
  'kubeconfigData',
  'password',
  'token',
  'pullSecret',
  'stringData',
]);

/** Keys a secret is a child of: every value in a Secret's `data`, the cookie among headers, the static tokens. */
const SECRET_CHILDREN: Readonly<Record<string, (key: string) => boolean>> = {
  data: () => true,
  headers: (key) => key === 'cookie',
  auth: (key) => key === 'tokens',
};

/** Levels walked: the logged object and three below it, as far as the former redaction paths reached. */
const MAX_DEPTH = 4;

/** Objects whose fields are logged as JSON (plain objects, arrays, errors), not values such as Buffers or Dates. */
function walkable(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value) || value instanceof Error) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function walk(
  value: Record<string, unknown>,
  depth: number,
  secretChild?: (key: string) => boolean,
  skip?: string,
): unknown {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    if (key === skip) continue;
    const v = value[key];
    let next: unknown = v;
    if (v !== undefined && (SECRET_KEYS.has(key) || secretChild?.(key))) next = CENSOR;
    else if (depth + 1 < MAX_DEPTH && walkable(v)) next = walk(v, depth + 1, SECRET_CHILDREN[key]);
    if (next !== v) {
      copy ??= (Array.isArray(value) ? [...(value as unknown[])] : { ...value }) as Record<string, unknown>;
      copy[key] = next;
    }
  }
  return copy ?? value;
}

/**
 * `obj` with every secret replaced by "[redacted]": the same object when it holds none, otherwise a copy of the
 * objects on the way to each one (what was logged is never changed). An Error met on the way is copied as its
 * enumerable fields, which is what its JSON holds. `skip`: a top-level key left as it is (the logger's `err`,
 * redacted once serialised, so that its message and stack survive).
 */
export function redactSecrets<T>(obj: T, skip?: string): T {
  return walkable(obj) ? (walk(obj, 0, undefined, skip) as T) : obj;
}
