import { randomInt } from 'node:crypto';

const ALPHANUM = 'bcdfghjklmnpqrstvwxz2456789'; // apimachinery utilrand's alphabet (no vowels, no confusables)

/** A 5-character suffix like Kubernetes generateName and Hive's pool namespaces use. */
export function rand5(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += ALPHANUM[randomInt(ALPHANUM.length)];
  return s;
}

/** FNV-1a 32-bit, hex: a short opaque hash like the ones Hive derives with deephash. */
export function fnv32a(text: string): string {
  let h = 0x811c9dc5;
  for (const ch of Buffer.from(text, 'utf8')) {
    h ^= ch;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** JSON with sorted keys, so equal values hash equally. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/**
 * apis/helpers/namer.go GetName: `<base>-<suffix>`, and when that exceeds maxLength the base is truncated and
 * a hash of the full base is inserted so distinct long bases stay distinct.
 */
export function nameWithSuffix(base: string, suffix: string, maxLength = 63): string {
  const name = `${base}-${suffix}`;
  if (name.length <= maxLength) return name;
  const keep = maxLength - 10 - suffix.length; // 10 = "-" + 8 hex + "-"
  return `${base.slice(0, keep)}-${fnv32a(base)}-${suffix}`;
}
