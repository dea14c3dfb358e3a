// What the fuzz suite knows of the API, read from the served OpenAPI document only: the operations, their path and
// query parameters, their body schemas (with $refs resolved), and a schema-valid value for any schema, so an
// operation added tomorrow is fuzzed with no edit here.

/** The JSON Schema subset the document uses. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  nullable?: boolean;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

export interface Operation {
  /** `POST /v1/clusters/{hub}/{namespace}/{name}/hibernate` */
  key: string;
  method: string;
  path: string;
  params: Parameter[];
  body?: Schema;
  bodyRequired: boolean;
  /** Answers with a stream (text/event-stream) that stays open. */
  streams: boolean;
}

interface Document {
  paths: Record<
    string,
    Record<string, { parameters?: Parameter[]; requestBody?: BodySpec; responses?: Record<string, BodySpec> }>
  >;
  components?: { schemas?: Record<string, Schema> };
}
interface BodySpec {
  required?: boolean;
  content?: Record<string, { schema?: Schema }>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

export function operationsOf(doc: Document): { operations: Operation[]; resolve: (s: Schema) => Schema } {
  const resolve = (s: Schema): Schema => {
    let cur = s;
    for (let hops = 0; cur.$ref && hops < 20; hops++) {
      const name = cur.$ref.replace('#/components/schemas/', '');
      const target = doc.components?.schemas?.[name];
      if (!target) throw new Error(`unresolved $ref ${cur.$ref}`);
      cur = target;
    }
    return cur;
  };
  const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]): Operation => {
        const json = op.requestBody?.content?.['application/json']?.schema;
        return {
          key: `${method.toUpperCase()} ${path}`,
          method: method.toUpperCase(),
          path,
          params: (op.parameters ?? []).map((p) => ({ ...p, required: p.required === true, schema: p.schema ?? {} })),
          ...(json ? { body: json } : {}),
          bodyRequired: op.requestBody?.required === true,
          streams: Object.values(op.responses ?? {}).some((r) => r.content?.['text/event-stream'] !== undefined),
        };
      }),
  );
  return { operations, resolve };
}

/** The JSON types a schema admits (after $ref), for picking a value of another type. */
export function typesOf(s: Schema, resolve: (s: Schema) => Schema): Set<string> {
  const r = resolve(s);
  const out = new Set<string>();
  const alts = r.anyOf ?? r.oneOf;
  if (alts) for (const a of alts) for (const t of typesOf(a, resolve)) out.add(t);
  if (r.allOf) for (const a of r.allOf) for (const t of typesOf(a, resolve)) out.add(t);
  if (Array.isArray(r.type)) r.type.forEach((t) => out.add(t));
  else if (r.type) out.add(r.type);
  else if (r.enum) r.enum.forEach((v) => out.add(jsonType(v)));
  else if (r.const !== undefined) out.add(jsonType(r.const));
  else if (r.properties) out.add('object');
  if (r.nullable) out.add('null');
  if (out.has('integer')) out.add('number');
  // No type at all: anything goes, so no value has the wrong type.
  if (!alts && !r.allOf && !r.type && !r.enum && r.const === undefined && !r.properties) out.add('any');
  return out;
}

export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** The allowed values of an enum-like schema (enum, const, anyOf of those), or undefined for an open one. */
export function enumOf(s: Schema, resolve: (s: Schema) => Schema): unknown[] | undefined {
  const r = resolve(s);
  if (r.enum) return r.enum;
  if (r.const !== undefined) return [r.const];
  const alts = r.anyOf ?? r.oneOf;
  if (!alts) return undefined;
  const values: unknown[] = [];
  for (const a of alts) {
    const e = enumOf(a, resolve);
    if (!e) return undefined;
    values.push(...e);
  }
  return values;
}

/**
 * A value the schema accepts, as far as the schema alone says (a pattern is met by a plain lower-case name, which
 * fits every name pattern in the API; the service may still refuse it, which only makes the request refused).
 */
export function sampleOf(s: Schema, resolve: (s: Schema) => Schema, depth = 0): unknown {
  const r = resolve(s);
  if (r.default !== undefined) return r.default;
  if (r.examples?.length) return r.examples[0];
  if (r.example !== undefined) return r.example;
  const e = enumOf(r, resolve);
  if (e?.length) return e[0];
  const alts = r.anyOf ?? r.oneOf;
  if (alts?.length) return sampleOf(alts[0]!, resolve, depth + 1);
  if (r.allOf?.length) return sampleOf(r.allOf[0]!, resolve, depth + 1);
  const type = Array.isArray(r.type) ? r.type.find((t) => t !== 'null') : (r.type ?? (r.properties ? 'object' : ''));
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth > 8) return out;
      for (const name of r.required ?? []) {
        const p = r.properties?.[name];
        out[name] = p ? sampleOf(p, resolve, depth + 1) : 'x';
      }
      return out;
    }
    case 'array': {
      const n = Math.max(r.minItems ?? 0, 1);
      return r.items && depth <= 8 ? Array.from({ length: n }, () => sampleOf(r.items!, resolve, depth + 1)) : [];
    }
    case 'integer':
    case 'number':
      return r.minimum ?? (r.exclusiveMinimum !== undefined ? r.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string': {
      if (r.format === 'date-time') return new Date().toISOString();
      if (r.format === 'uri') return 'https://hooks.example.com/x';
      const base = 'fuzz';
      return base.padEnd(r.minLength ?? 0, 'z').slice(0, r.maxLength ?? Infinity);
    }
    default:
      return 'x';
  }
}
