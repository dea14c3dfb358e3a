// Every setting of SettingsSchema by its dotted path, with its annotations (`env`, `rule`, `secret`, `fileKey`,
// limits and default; config/schema.ts), for the environment map, the file's known keys and the error messages.
import type { TSchema } from 'typebox';
import { SettingsSchema } from './schema.js';

/** A schema with the annotations config/schema.ts describes. */
export type Annotated = TSchema & {
  env?: string;
  rule?: string;
  secret?: boolean;
  fileKey?: boolean;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  minItems?: number;
  enum?: readonly unknown[];
  type?: string;
  properties?: Record<string, Annotated>;
  items?: Annotated;
};

/** One setting: its dotted path and its schema (with `env`, limits and default as annotations). */
export interface Setting {
  path: string;
  schema: Annotated;
}

function leaves(schema: Annotated, prefix: string): Setting[] {
  if (!schema.properties || schema.env) return [{ path: prefix, schema }];
  return Object.entries(schema.properties).flatMap(([key, child]) => leaves(child, prefix ? `${prefix}.${key}` : key));
}

/** Every setting, in the schema's order. */
export const SETTINGS: ReadonlyMap<string, Setting> = new Map(
  leaves(SettingsSchema as Annotated, '').map((s) => [s.path, s]),
);

export function setting(path: string): Setting {
  const s = SETTINGS.get(path);
  if (!s) throw new Error(`no setting ${path} in SettingsSchema`);
  return s;
}
