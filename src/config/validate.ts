// The raw settings against SettingsSchema, once, by a compiled validator: text from the environment (and from the
// file, where it wrote a number as text) is converted as the schema says, defaults are filled in, and every error is
// worded as the operator's problem: the variable or file key, the value unless it is secret, and what is allowed.
import type { Static } from 'typebox';
import { Compile } from 'typebox/compile';
import type { TLocalizedValidationError } from 'typebox/error';
import { Settings as TypeBoxSettings } from 'typebox/system';
import { Value } from 'typebox/value';
import { SettingsSchema } from './schema.js';
import type { Annotated } from './settings.js';

export type Settings = Static<typeof SettingsSchema>;

/** One problem: where in the settings (SettingsSchema's property path, list entries by index) and why. */
export interface Problem {
  path: string[];
  reason: string;
}

const validator = Compile(SettingsSchema);

/**
 * The settings with their defaults filled in (`value`, for the rules across settings, even when invalid), typed as
 * `settings` when the schema accepts them, and otherwise every problem the schema finds.
 */
export function validateSettings(raw: unknown): { value: unknown; settings?: Settings; problems: Problem[] } {
  const value = Value.Default(SettingsSchema, convert(SettingsSchema, raw));
  if (validator.Check(value)) return { value, settings: value, problems: [] };
  const seen = new Set<string>();
  const problems = allErrors(value)
    .flatMap((e) => explain(e, value))
    // One reason per value is enough (an empty string breaks both its length and its pattern).
    .filter((p) => !seen.has(p.path.join('/')) && seen.add(p.path.join('/')));
  return { value, problems };
}

/** TypeBox buffers 8 errors by default (a guard for untrusted input); an operator's own settings are listed in full. */
function allErrors(value: unknown): TLocalizedValidationError[] {
  const { maxErrors } = TypeBoxSettings.Get();
  TypeBoxSettings.Set({ maxErrors: 1000 });
  try {
    return validator.Errors(value);
  } finally {
    TypeBoxSettings.Set({ maxErrors });
  }
}

function convert(schema: Annotated | undefined, value: unknown): unknown {
  if (schema === undefined) return value;
  if (typeof value === 'string') {
    const text = value.trim();
    if (schema.type === 'integer' && /^[-+]?\d+$/.test(text)) return Number(text);
    if (schema.type === 'number' && /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return Number(text);
    if (schema.type === 'boolean' && /^(true|yes|1)$/i.test(text)) return true;
    if (schema.type === 'boolean' && /^(false|no|0)$/i.test(text)) return false;
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => convert(schema.items, v));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(schema.properties?.[k], v)]));
  }
  return value;
}

function explain(e: TLocalizedValidationError, root: unknown): Problem[] {
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'));
  switch (e.keyword) {
    case 'boolean': // the `false` schema of additionalProperties; reported below, once per object
      return [];
    case 'additionalProperties':
      return e.params.additionalProperties.map((key) => ({ path: [...path, key], reason: 'unknown key' }));
    case 'required':
      return e.params.requiredProperties.map((key) => ({ path: [...path, key], reason: 'is required' }));
  }
  const schema = schemaAt(path);
  const value = path.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], root);
  return [{ path, reason: because(e, schema, value) }];
}

function because(e: TLocalizedValidationError, schema: Annotated, value: unknown): string {
  const shown = schema.secret ? '' : `${typeof value === 'string' ? JSON.stringify(value) : String(value)} `;
  switch (e.keyword) {
    case 'type': {
      const expected = String(e.params.type);
      if (expected === 'integer') return `${shown}is not an integer`;
      if (expected === 'number') return `${shown}is not a number`;
      if (expected === 'boolean') return `${shown}must be true or false`;
      if (expected === 'object') return `${shown}must be a mapping`;
      if (expected === 'array') return `${shown}must be a list`;
      return `${shown}must be a ${expected}`;
    }
    case 'minimum':
    case 'maximum':
      return `${String(value)} is outside ${schema.minimum}..${schema.maximum}`;
    case 'enum':
      return `${shown}must be one of ${(schema.enum ?? []).join(', ')}`;
    case 'pattern':
      return `${shown}must be ${schema.rule}`;
    case 'minLength':
      return schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters`;
    case 'minItems':
      return `must be ${schema.rule ?? `a list of at least ${schema.minItems ?? 1}`}`;
    case '~refine':
      return e.params.message;
    default:
      return e.message;
  }
}

function schemaAt(path: readonly string[]): Annotated {
  let node = SettingsSchema as Annotated;
  for (const key of path) node = (node.properties ? node.properties[key] : node.items) ?? node;
  return node;
}
