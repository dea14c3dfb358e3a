// Small typed readers that coerce one raw value (a string from the environment, or a YAML value) and record a
// problem instead of throwing, so that start-up can list every bad value at once.

export interface Issues {
  add(path: string, reason: string): void;
  list(): string[];
}

export function createIssues(): Issues {
  const items: string[] = [];
  return { add: (path, reason) => items.push(`${path}: ${reason}`), list: () => [...items] };
}

/** Where a raw value came from, so an error names the variable the operator actually set. */
export interface Source {
  value: unknown;
  /** `BEEKEEPER_CONCURRENCY` or `concurrency.perHub (config file)`. */
  from: string;
}

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v));

export function readInt(
  src: Source | undefined,
  issues: Issues,
  opts: { min: number; max: number; fallback: number },
): number {
  return readNumeric(src, issues, opts, true);
}

export function readNumber(
  src: Source | undefined,
  issues: Issues,
  opts: { min: number; max: number; fallback: number },
): number {
  return readNumeric(src, issues, opts, false);
}

function readNumeric(
  src: Source | undefined,
  issues: Issues,
  opts: { min: number; max: number; fallback: number },
  integer: boolean,
): number {
  if (src === undefined) return opts.fallback;
  const raw = src.value;
  const text = typeof raw === 'string' ? raw.trim() : '';
  const n = typeof raw === 'number' ? raw : text !== '' && (!integer || /^-?\d+$/.test(text)) ? Number(text) : NaN;
  if (integer ? !Number.isInteger(n) : !Number.isFinite(n)) {
    issues.add(src.from, `${show(raw)} is not ${integer ? 'an integer' : 'a number'}`);
    return opts.fallback;
  }
  if (n < opts.min || n > opts.max) {
    issues.add(src.from, `${n} is outside ${opts.min}..${opts.max}`);
    return opts.fallback;
  }
  return n;
}

export function readString(
  src: Source | undefined,
  issues: Issues,
  opts: { fallback: string; pattern?: RegExp; rule?: string; secret?: boolean },
): string {
  if (src === undefined) return opts.fallback;
  const raw = src.value;
  if (typeof raw !== 'string' || raw.trim() === '') {
    issues.add(src.from, opts.secret ? 'must be a non-empty string' : `${show(raw)} must be a non-empty string`);
    return opts.fallback;
  }
  if (opts.pattern && !opts.pattern.test(raw)) {
    issues.add(src.from, opts.secret ? `must be ${opts.rule}` : `${show(raw)} must be ${opts.rule}`);
    return opts.fallback;
  }
  return raw;
}

export function readEnum<T extends string>(
  src: Source | undefined,
  issues: Issues,
  allowed: readonly T[],
  fallback: T,
): T {
  if (src === undefined) return fallback;
  if (typeof src.value === 'string' && (allowed as readonly string[]).includes(src.value)) return src.value as T;
  issues.add(src.from, `${show(src.value)} must be one of ${allowed.join(', ')}`);
  return fallback;
}

export function readBool(src: Source | undefined, issues: Issues, fallback: boolean): boolean {
  if (src === undefined) return fallback;
  const v = src.value;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|1|yes)$/i.test(v)) return true;
  if (typeof v === 'string' && /^(false|0|no)$/i.test(v)) return false;
  issues.add(src.from, `${show(v)} must be true or false`);
  return fallback;
}

/** `host:port` as used for Sentinel and Cluster seed nodes. */
export function readHostPorts(src: Source | undefined, issues: Issues): Array<{ host: string; port: number }> {
  if (src === undefined) return [];
  const items =
    typeof src.value === 'string'
      ? src.value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : src.value;
  if (!Array.isArray(items) || items.length === 0) {
    issues.add(src.from, 'must list at least one host:port');
    return [];
  }
  const out: Array<{ host: string; port: number }> = [];
  for (const item of items) {
    const m = typeof item === 'string' ? /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(item) : null;
    const port = m ? Number(m[2]) : NaN;
    if (!m || port < 1 || port > 65535) issues.add(src.from, `${show(item)} is not host:port`);
    else out.push({ host: m[1]!, port });
  }
  return out;
}
