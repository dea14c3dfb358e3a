// The optional YAML configuration file (BEEKEEPER_CONFIG=path). Keys are SettingsSchema's; unknown keys are reported
// rather than ignored, because a typo such as `concurency` would otherwise silently fall back to a default.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { TSchema } from 'typebox';
import type { Issues, Source } from './fields.js';
import { SettingsSchema } from './schema.js';

export interface FileLayer {
  /** The raw value at a dotted path, tagged with where it came from. */
  at(path: string): Source | undefined;
}

export function readConfigFile(path: string | undefined, issues: Issues): FileLayer {
  if (!path) return { at: () => undefined };
  let doc: unknown;
  try {
    doc = parse(readFileSync(path, 'utf8'));
  } catch (err) {
    issues.add('BEEKEEPER_CONFIG', `cannot read ${path}: ${(err as Error).message.split('\n')[0]}`);
    return { at: () => undefined };
  }
  if (doc === null || doc === undefined) doc = {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    issues.add('BEEKEEPER_CONFIG', `${path} must hold a YAML mapping`);
    return { at: () => undefined };
  }
  checkKeys(doc as Record<string, unknown>, SettingsSchema, '', issues, path);
  return {
    at(dotted) {
      let cur: unknown = doc;
      for (const key of dotted.split('.')) {
        if (cur === null || typeof cur !== 'object') return undefined;
        cur = (cur as Record<string, unknown>)[key];
      }
      return cur === undefined || cur === null ? undefined : { value: cur, from: `${dotted} (${path})` };
    },
  };
}

function checkKeys(obj: Record<string, unknown>, schema: TSchema, prefix: string, issues: Issues, file: string) {
  const props = (schema as { properties?: Record<string, TSchema & { fileKey?: boolean }> }).properties ?? {};
  for (const [key, value] of Object.entries(obj)) {
    const where = prefix + key;
    const known = Object.hasOwn(props, key) && props[key]!.fileKey !== false ? props[key] : undefined;
    if (known === undefined) issues.add(`${where} (${file})`, 'unknown key');
    else if ((known as { properties?: unknown }).properties) {
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        issues.add(`${where} (${file})`, 'must be a mapping');
      else checkKeys(value as Record<string, unknown>, known, `${where}.`, issues, file);
    }
  }
}
