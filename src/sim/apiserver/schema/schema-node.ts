/**
 * The subset of apiextensions.k8s.io/v1 JSONSchemaProps that a structural schema may use. The engine walks
 * these objects as given (no conversion), so a CRD's `openAPIV3Schema` can be passed straight in.
 */
export interface SchemaNode {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  required?: string[];
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  nullable?: boolean;
  default?: unknown;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  allOf?: SchemaNode[];
  not?: SchemaNode;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-validations'?: { rule: string; message?: string }[];
  [other: string]: unknown;
}

export type JsonObject = Record<string, unknown>;

export function isObject(x: unknown): x is JsonObject {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The schema for a map value: `additionalProperties` when it is a schema, otherwise none. */
export function additionalSchema(s: SchemaNode | undefined): SchemaNode | undefined {
  return isObject(s?.additionalProperties) ? s.additionalProperties : undefined;
}

/** Field paths as Kubernetes prints them: `spec.ingress[0].name`, map keys as `labels[key]`. */
export function childPath(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

export function indexPath(parent: string, i: number | string): string {
  return `${parent}[${i}]`;
}
