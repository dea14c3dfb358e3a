/**
 * Small constructors for apiextensions.k8s.io/v1 JSONSchemaProps, so each CRD file reads like the Go type it
 * mirrors. Every call returns a fresh object: CRDs built from them can be mutated by the caller safely.
 */
export type Schema = Record<string, unknown>;

/** Go time.ParseDuration syntax as Hive's CRDs check it (no `d` unit). */
export const DURATION_PATTERN = '^([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$';

export const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
export const bool = (): Schema => ({ type: 'boolean' });
export const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
export const int32 = (extra: Schema = {}): Schema => ({ type: 'integer', format: 'int32', ...extra });
export const int64 = (extra: Schema = {}): Schema => ({ type: 'integer', format: 'int64', ...extra });
export const dateTime = (): Schema => str({ format: 'date-time' });
export const duration = (): Schema => str({ pattern: DURATION_PATTERN });
export const enumOf = (...values: string[]): Schema => str({ enum: values });

export function obj(properties: Record<string, Schema>, required?: string[], extra: Schema = {}): Schema {
  return { type: 'object', properties, ...(required?.length ? { required } : {}), ...extra };
}

export const arr = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra });
export const mapOf = (values: Schema): Schema => ({ type: 'object', additionalProperties: values });
export const stringMap = (): Schema => mapOf(str());

/**
 * A sub-structure Beekeeper does not model (ingress route selectors, machine platform details, ...): accepted
 * and stored as sent, so nothing upstream accepts is refused. Listed properties and `required` still apply.
 */
export function opaque(properties?: Record<string, Schema>, required?: string[], extra: Schema = {}): Schema {
  const base: Schema = properties ? obj(properties, required, extra) : { type: 'object', ...extra };
  return { ...base, 'x-kubernetes-preserve-unknown-fields': true };
}
