import type { FieldError } from './field-error.js';
import { isObject } from './schema-node.js';

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

const MAX_INT32 = 2147483647;

/**
 * The replica checks apiextensions adds for CRDs with a scale subresource (customResourceValidator
 * ValidateScaleSpec/ValidateScaleStatus). Field paths keep the leading dot of the CRD's JSONPath
 * (".spec.size"), exactly as field.NewPath(scale.SpecReplicasPath) prints them.
 */
export function checkScale(obj: unknown, scale: ScaleSubresource, errs: FieldError[]): void {
  for (const path of [scale.specReplicasPath, scale.statusReplicasPath]) {
    const { value, error } = nestedInt64(obj, path);
    if (error) errs.push({ type: 'Invalid', field: path, value: 0, detail: error });
    else if (value < 0) errs.push({ type: 'Invalid', field: path, value, detail: 'should be a non-negative integer' });
    else if (value > MAX_INT32)
      errs.push({ type: 'Invalid', field: path, value, detail: `should be less than or equal to ${MAX_INT32}` });
  }
  if (scale.labelSelectorPath) {
    const found = lookup(obj, scale.labelSelectorPath);
    if (found !== undefined && typeof found !== 'string') {
      errs.push({
        type: 'Invalid',
        field: scale.labelSelectorPath,
        value: '',
        detail: `${scale.labelSelectorPath} accessor error: ${goPlain(found)} is of the type ${goTypeName(found)}, expected string`,
      });
    }
  }
}

/** unstructured.NestedInt64: absent is 0 without error; a non-integer is an "accessor error". */
function nestedInt64(obj: unknown, path: string): { value: number; error?: string } {
  const found = lookup(obj, path);
  if (found === undefined) return { value: 0 };
  if (typeof found === 'number' && Number.isInteger(found)) return { value: found };
  return {
    value: 0,
    error: `${path} accessor error: ${goPlain(found)} is of the type ${goTypeName(found)}, expected int64`,
  };
}

function lookup(obj: unknown, path: string): unknown {
  let node = obj;
  for (const key of path.replace(/^\./, '').split('.')) {
    if (!isObject(node) || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'float64';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** %v of a decoded JSON value (only scalars are worth printing faithfully here). */
function goPlain(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(goPlain).join(' ')}]`;
  if (isObject(v))
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goPlain(v[k])}`)
      .join(' ')}]`;
  return v === null ? '<nil>' : String(v);
}
