// Built-in kinds served from a schema handed in at start (ApiServerOptions.kinds), for kinds the double has no
// hand-written behaviour for (Deployments, Services, NetworkPolicies...). The schema is Kubernetes' own OpenAPI
// schema of the kind with every $ref resolved; `x-go-type` on a node names the Go type it decodes into (`v1.PodSpec`,
// `int32` is derived from the format). The double ships no such schemas: callers bring them (tests load them from a
// schema package), so the simulator never depends on one.
//
// Built-in objects are decoded into Go structs before anything validates them, which is where they differ from
// custom resources: a value of the wrong JSON type is a 400 from the decoder ("json: cannot unmarshal string into Go
// struct field DeploymentSpec.spec.replicas of type int32"), not a 422 cause. Unknown fields are reported like a
// custom resource's (Warning headers, or the strict decoding error under fieldValidation=Strict), and what the
// schema requires or enumerates becomes the usual 422 causes, with the Go rules of kind-rules.ts.
import type { ResourceType } from './types.js';
import { kindShape } from './serialize.js';
import { validateMeta } from './meta.js';
import { compileSchema } from './schema/index.js';
import { additionalSchema, isObject, type SchemaNode } from './schema/schema-node.js';
import { goJsonType } from './typed-fields.js';
import { kindRules } from './kind-rules.js';

export interface SchemaKind {
  group: string;
  version: string;
  /** Plural resource name, as in the URL. */
  resource: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  /** The kind's schema, $refs resolved; the root's Go type is the kind itself. */
  schema: SchemaNode;
  /** metadata.generation is maintained (most kinds with a spec; not Services). Default true. */
  generation?: boolean;
}

export function schemaKindResources(kinds: SchemaKind[]): ResourceType[] {
  return kinds.map((k) => {
    const { apiVersion, kind, metadata, ...body } = k.schema.properties ?? {};
    const statusSubresource = 'status' in body;
    const rules = kindRules(k.group, k.kind);
    const compiled = compileSchema({ ...k.schema, properties: { apiVersion, kind, ...body } });
    return {
      group: k.group,
      version: k.version,
      resource: k.resource,
      kind: k.kind,
      listKind: `${k.kind}List`,
      singular: '',
      namespaced: k.namespaced,
      shortNames: k.shortNames,
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      storageKey: `${k.group}/${k.resource}`,
      statusSubresource,
      builtin: {
        shape: kindShape(Object.keys(body)),
        schema: compiled,
        decodeError: (obj) => goDecodeError(obj, k.schema, k.kind),
        defaults(obj, op) {
          // The create strategies of built-in kinds reset status: it is the controllers' to write.
          if (op === 'create' && statusSubresource) obj.status = {};
        },
        validate: (obj) => [...validateMeta(obj.metadata, 'subdomain'), ...(rules?.(obj) ?? [])],
        hasGeneration: k.generation ?? true,
        untrackedPaths: statusSubresource ? [['status']] : [],
      },
    };
  });
}

/**
 * The Go JSON decoder's first type error in document order, as encoding/json words it: the innermost struct's name,
 * then the field path from the root without indices or map keys, then the Go type.
 */
export function goDecodeError(obj: unknown, root: SchemaNode, kind: string): string | undefined {
  const walk = (v: unknown, s: SchemaNode | undefined, struct: string, fields: string[]): string | undefined => {
    if (!s || v === null || v === undefined) return undefined; // null decodes to the zero value
    const goType = goTypeOf(s);
    const fail = () =>
      `json: cannot unmarshal ${valueName(v, s)} into Go struct field ${struct}.${fields.join('.')} of type ${goType}`;
    if (s['x-kubernetes-int-or-string'] || s['x-kubernetes-preserve-unknown-fields'] || s.anyOf || s.oneOf)
      return undefined; // custom unmarshalers (IntOrString, Quantity) and free-form values
    switch (s.type) {
      case 'integer':
        return typeof v === 'number' && Number.isInteger(v) ? undefined : fail();
      case 'number':
        return typeof v === 'number' ? undefined : fail();
      case 'boolean':
        return typeof v === 'boolean' ? undefined : fail();
      case 'string':
        return typeof v === 'string' ? undefined : fail();
      case 'array':
        if (!Array.isArray(v)) return fail();
        for (const item of v) {
          const err = walk(item, s.items, struct, fields);
          if (err) return err;
        }
        return undefined;
      case 'object': {
        if (!isObject(v)) return fail();
        const inner = s.properties ? structName(s) : struct;
        for (const [key, value] of Object.entries(v)) {
          const child = s.properties ? s.properties[key] : additionalSchema(s);
          const err = walk(value, child, inner, s.properties ? [...fields, key] : fields);
          if (err) return err;
        }
        return undefined;
      }
      default:
        return undefined;
    }
  };
  const { metadata, ...rest } = isObject(obj) ? obj : {};
  return walk(rest, { ...root, 'x-go-type': root['x-go-type'] ?? `v1.${kind}` }, kind, []);
}

function structName(s: SchemaNode): string {
  const t = String(s['x-go-type'] ?? '');
  return t.slice(t.lastIndexOf('.') + 1);
}

function goTypeOf(s: SchemaNode): string {
  if (typeof s['x-go-type'] === 'string') return s['x-go-type'];
  switch (s.type) {
    case 'integer':
      return s.format === 'int32' ? 'int32' : s.format === 'int64' ? 'int64' : 'int';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'array':
      return `[]${s.items ? goTypeOf(s.items) : 'interface {}'}`;
    case 'object': {
      const value = additionalSchema(s);
      return value ? `map[string]${goTypeOf(value)}` : 'map[string]interface {}';
    }
    default:
      return 'interface {}';
  }
}

/** encoding/json names a number that does not fit the Go type with its value ("number 1.5"). */
function valueName(v: unknown, s: SchemaNode): string {
  return typeof v === 'number' && s.type === 'integer' ? `number ${v}` : goJsonType(v);
}
