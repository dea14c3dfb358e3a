import type { FieldError } from './field-error.js';
import { goQuote, goValue } from './field-error.js';
import { satisfiesFormat } from './formats.js';
import { canonicalJson, checkListType } from './list-type.js';
import { additionalSchema, childPath, indexPath, isObject, type SchemaNode } from './schema-node.js';

/**
 * OpenAPI v3 validation of a pruned, defaulted value, with kube-openapi's messages ("<path> in body ...") mapped
 * to field errors as apiextensions' kubeOpenAPIResultToFieldErrors does: required -> Required, enum ->
 * NotSupported, maxLength -> TooLong, maxItems/maxProperties -> TooMany, type and format -> TypeInvalid, the rest
 * -> Invalid. Property errors come before the object's own required errors (the order golden 16 mostly shows).
 */
export function validateValue(x: unknown, s: SchemaNode | undefined, path: string, errs: FieldError[]): void {
  if (!s) return;
  if (x === null && s.nullable) return;
  const typeOk = checkType(x, s, path, errs);
  if (s.enum && !s.enum.some((allowed) => canonicalJson(allowed) === canonicalJson(x))) {
    const supported = s.enum.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    errs.push({ type: 'NotSupported', field: path, value: x, detail: `supported values: ${supported.map(goQuote).join(', ')}` });
  }
  if (!typeOk) return;
  if (typeof x === 'string') checkString(x, s, path, errs);
  else if (typeof x === 'number') checkNumber(x, s, path, errs);
  else if (Array.isArray(x)) checkArray(x, s, path, errs);
  else if (isObject(x)) checkObject(x, s, path, errs);
  checkJunctors(x, s, path, errs);
}

function jsonType(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'array';
  if (typeof x === 'number') return Number.isInteger(x) ? 'integer' : 'number';
  return typeof x === 'object' ? 'object' : typeof x;
}

function checkType(x: unknown, s: SchemaNode, path: string, errs: FieldError[]): boolean {
  // apiextensions turns x-kubernetes-int-or-string into type ["integer","string"] for validation.
  const types: string[] = s['x-kubernetes-int-or-string'] ? ['integer', 'string'] : s.type ? [s.type] : [];
  const actual = jsonType(x);
  if (types.length === 0 || types.includes(actual) || (actual === 'integer' && types.includes('number'))) return true;
  errs.push({ type: 'TypeInvalid', field: path, value: actual, detail: `${path} in body must be of type ${types.join(',')}: ${goQuote(actual)}` });
  return false;
}

function invalid(errs: FieldError[], path: string, value: unknown, message: string): void {
  errs.push({ type: 'Invalid', field: path, value, detail: `${path} in body ${message}` });
}

function checkString(x: string, s: SchemaNode, path: string, errs: FieldError[]): void {
  const length = [...x].length; // kube-openapi counts runes, not UTF-16 units
  if (s.maxLength !== undefined && length > s.maxLength) {
    errs.push({ type: 'TooLong', field: path, value: x, detail: `may not be longer than ${s.maxLength}` });
  }
  if (s.minLength !== undefined && length < s.minLength) invalid(errs, path, x, `should be at least ${s.minLength} chars long`);
  if (s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(x)) invalid(errs, path, x, `should match '${s.pattern}'`);
  if (s.format && !satisfiesFormat(s.format, x)) {
    errs.push({ type: 'TypeInvalid', field: path, value: x, detail: `${path} in body must be of type ${s.format}: ${goQuote(x)}` });
  }
}

function checkNumber(x: number, s: SchemaNode, path: string, errs: FieldError[]): void {
  const num = (n: number) => goValue(n);
  if (s.maximum !== undefined) {
    if (s.exclusiveMaximum ? x >= s.maximum : x > s.maximum) {
      invalid(errs, path, x, s.exclusiveMaximum ? `should be less than ${num(s.maximum)}` : `should be less than or equal to ${num(s.maximum)}`);
    }
  }
  if (s.minimum !== undefined) {
    if (s.exclusiveMinimum ? x <= s.minimum : x < s.minimum) {
      invalid(errs, path, x, s.exclusiveMinimum ? `should be greater than ${num(s.minimum)}` : `should be greater than or equal to ${num(s.minimum)}`);
    }
  }
  if (s.multipleOf !== undefined && !Number.isInteger(x / s.multipleOf)) invalid(errs, path, x, `should be a multiple of ${num(s.multipleOf)}`);
}

function checkArray(x: unknown[], s: SchemaNode, path: string, errs: FieldError[]): void {
  if (s.maxItems !== undefined && x.length > s.maxItems) {
    errs.push({ type: 'TooMany', field: path, value: x.length, detail: `must have at most ${s.maxItems} items` });
  }
  if (s.minItems !== undefined && x.length < s.minItems) invalid(errs, path, x.length, `should have at least ${s.minItems} items`);
  if (s.uniqueItems && new Set(x.map(canonicalJson)).size !== x.length) invalid(errs, path, '', "shouldn't contain duplicates");
  x.forEach((item, i) => validateValue(item, s.items, indexPath(path, i), errs));
  checkListType(x, s, path, errs);
}

function checkObject(x: Record<string, unknown>, s: SchemaNode, path: string, errs: FieldError[]): void {
  const count = Object.keys(x).length;
  if (s.maxProperties !== undefined && count > s.maxProperties) {
    errs.push({ type: 'TooMany', field: path, value: count, detail: `must have at most ${s.maxProperties} items` });
  }
  if (s.minProperties !== undefined && count < s.minProperties) invalid(errs, path, count, `should have at least ${s.minProperties} properties`);
  const extra = additionalSchema(s);
  for (const key of Object.keys(x).sort()) {
    const prop = s.properties?.[key] ?? extra;
    if (prop) validateValue(x[key], prop, childPath(path, key), errs);
  }
  for (const key of s.required ?? []) {
    if (!(key in x)) errs.push({ type: 'Required', field: childPath(path, key), detail: '' });
  }
  if (s['x-kubernetes-embedded-resource']) checkEmbeddedTypeMeta(x, path, errs);
}

/** An embedded resource must say what it is (apiextensions schemaobjectmeta.Validate). */
function checkEmbeddedTypeMeta(x: Record<string, unknown>, path: string, errs: FieldError[]): void {
  for (const key of ['kind', 'apiVersion']) {
    if (typeof x[key] !== 'string' || x[key] === '') errs.push({ type: 'Required', field: childPath(path, key), detail: 'must not be empty' });
  }
}

/** allOf/anyOf/oneOf/not carry value validations only (no types) in a structural schema. */
function checkJunctors(x: unknown, s: SchemaNode, path: string, errs: FieldError[]): void {
  const run = (sub: SchemaNode) => {
    const subErrs: FieldError[] = [];
    validateValue(x, sub, path, subErrs);
    return subErrs;
  };
  for (const sub of s.allOf ?? []) errs.push(...run(sub));
  if (s.anyOf) {
    const results = s.anyOf.map(run);
    if (!results.some((r) => r.length === 0)) {
      invalid(errs, path, x, 'must validate at least one schema (anyOf)');
      errs.push(...(results[0] ?? []));
    }
  }
  if (s.oneOf) {
    const results = s.oneOf.map(run);
    const passing = results.filter((r) => r.length === 0).length;
    if (passing !== 1) invalid(errs, path, x, 'must validate one and only one schema (oneOf)');
    if (passing === 0) errs.push(...(results[0] ?? []));
  }
  if (s.not && run(s.not).length === 0) invalid(errs, path, x, 'must not validate the schema (not)');
}
