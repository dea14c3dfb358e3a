// The optional YAML configuration file (BEEKEEPER_CONFIG=path). Keys are SettingsSchema's; unknown keys are reported
// rather than ignored, because a typo such as `concurency` would otherwise silently fall back to a default. (Keys
// inside a list entry, such as a hub's, are the schema's to check.)
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { SettingsSchema } from './schema.js';
import type { Annotated } from './settings.js';

export interface FileLayer {
  /** The file's path, for messages. */
  path: string;
  /** The value at a setting's dotted path; a YAML `null` counts as absent, there and in list entries. */
  at(path: string): unknown;
}

export function readConfigFile(
  path: string | undefined,
  report: (where: string, reason: string) => void,
): FileLayer | undefined {
  if (!path) return undefined;
  let doc: unknown;
  try {
    doc = parse(readFileSync(path, 'utf8'));
  } catch (err) {
    report('BEEKEEPER_CONFIG', `cannot read ${path}: ${(err as Error).message.split('\n')[0]}`);
    return undefined;
  }
  if (doc === null || doc === undefined) doc = {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    report('BEEKEEPER_CONFIG', `${path} must hold a YAML mapping`);
    return undefined;
  }
  checkKeys(doc as Record<string, unknown>, SettingsSchema, '', (where, reason) =>
    report(`${where} (${path})`, reason),
  );
  return {
    path,
    at(dotted) {
      let cur: unknown = doc;
      for (const key of dotted.split('.')) {
        if (cur === null || typeof cur !== 'object') return undefined;
        cur = (cur as Record<string, unknown>)[key];
      }
      return withoutNulls(cur);
    },
  };
}

function checkKeys(
  obj: Record<string, unknown>,
  schema: Annotated,
  prefix: string,
  report: (where: string, reason: string) => void,
) {
  const props = schema.properties ?? {};
  for (const [key, value] of Object.entries(obj)) {
    const where = prefix + key;
    const known = Object.hasOwn(props, key) && props[key]!.fileKey !== false ? props[key] : undefined;
    if (known === undefined) report(where, 'unknown key');
    else if (known.properties && !known.env) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) report(where, 'must be a mapping');
      else checkKeys(value as Record<string, unknown>, known, `${where}.`, report);
    }
  }
}

function withoutNulls(value: unknown): unknown {
  if (value === null) return undefined;
  if (Array.isArray(value)) return value.map((v) => (v && typeof v === 'object' ? withoutNulls(v) : v));
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  }
  return value;
}
