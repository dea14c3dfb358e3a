import type { FieldError } from './field-error.js';
import { goQuote, goValue } from './field-error.js';
import { satisfiesFormat } from './formats.js';
import { canonicalJson, checkListType } from './list-type.js';
import { additionalSchema, childPath, indexPath, isObject, type SchemaNode } from './schema-node.js';

/** Where errors are collected, plus the compiled patterns of one compiled schema. */
export interface Context {
  errs: FieldError[];
  patterns: Map<string, { test(s: string): boolean }>;
}

/**
 * OpenAPI v3 validation of a pruned, defaulted value, with kube-openapi's messages ("<path> in body ...") mapped
 * to field errors as apiextensions' kubeOpenAPIResultToFieldErrors does: required -> Required, enum ->
 * NotSupported, maxLength -> TooLong, maxItems/maxProperties -> TooMany, type and format -> TypeInvalid, the rest
 * -> Invalid. Property errors come before the object's own required errors (the order golden 16 mostly shows).
 */
export function validateValue(x: unknown, s: SchemaNode | undefined, path: string, ctx: Context): void {
  if (!s) return;
  if (x === null && s.nullable) return;
  const typeOk = checkType(x, s, path, ctx);
  if (s.enum && !s.enum.some((allowed) => canonicalJson(allowed) === canonicalJson(x))) {
    const supported = s.enum.map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    ctx.errs.push({
      type: 'NotSupported',
      field: path,
      value: x,
      detail: `supported values: ${supported.map(goQuote).join(', ')}`,
    });
  }
  if (!typeOk) return;
  if (typeof x === 'string') checkString(x, s, path, ctx);
  else if (typeof x === 'number') checkNumber(x, s, path, ctx);
  else if (Array.isArray(x)) checkArray(x, s, path, ctx);
  else if (isObject(x)) checkObject(x, s, path, ctx);
  checkJunctors(x, s, path, ctx);
}

function jsonType(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'array';
  if (typeof x === 'number') return Number.isInteger(x) ? 'integer' : 'number';
  return typeof x === 'object' ? 'object' : typeof x;
}

function checkType(x: unknown, s: SchemaNode, path: string, ctx: Context): boolean {
  // apiextensions turns x-kubernetes-int-or-string into type ["integer","string"] for validation.
  const types: string[] = s['x-kubernetes-int-or-string'] ? ['integer', 'string'] : s.type ? [s.type] : [];
  const actual = jsonType(x);
  if (types.length === 0 || types.includes(actual) || (actual === 'integer' && types.includes('number'))) return true;
  ctx.errs.push({
    type: 'TypeInvalid',
    field: path,
    value: actual,
    detail: `${path} in body must be of type ${types.join(',')}: ${goQuote(actual)}`,
  });
  return false;
}

function invalid(ctx: Context, path: string, value: unknown, message: string): void {
  ctx.errs.push({ type: 'Invalid', field: path, value, detail: `${path} in body ${message}` });
}

function checkString(x: string, s: SchemaNode, path: string, ctx: Context): void {
  const length = [...x].length; // kube-openapi counts runes, not UTF-16 units
  if (s.maxLength !== undefined && length > s.maxLength) {
    ctx.errs.push({ type: 'TooLong', field: path, value: x, detail: `may not be longer than ${s.maxLength}` });
  }
  if (s.minLength !== undefined && length < s.minLength)
    invalid(ctx, path, x, `should be at least ${s.minLength} chars long`);
  if (s.pattern !== undefined && !patternRegExp(ctx, s.pattern).test(x))
    invalid(ctx, path, x, `should match '${s.pattern}'`);
  if (s.format && !satisfiesFormat(s.format, x)) {
    ctx.errs.push({
      type: 'TypeInvalid',
      field: path,
      value: x,
      detail: `${path} in body must be of type ${s.format}: ${goQuote(x)}`,
    });
  }
}

/**
 * CRD patterns are Go RE2 syntax; nearly all of them mean the same in JavaScript. One that JavaScript cannot
 * compile is not enforced rather than failing the request (the API server already accepted the CRD).
 */
function patternRegExp(ctx: Context, pattern: string): { test(s: string): boolean } {
  let re = ctx.patterns.get(pattern);
  if (!re) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      try {
        re = new RegExp(pattern);
      } catch {
        re = { test: () => true };
      }
    }
    ctx.patterns.set(pattern, re);
  }
  return re;
}

function checkNumber(x: number, s: SchemaNode, path: string, ctx: Context): void {
  const num = (n: number) => goValue(n);
  if (s.maximum !== undefined) {
    if (s.exclusiveMaximum ? x >= s.maximum : x > s.maximum) {
      invalid(
        ctx,
        path,
        x,
        s.exclusiveMaximum
          ? `should be less than ${num(s.maximum)}`
          : `should be less than or equal to ${num(s.maximum)}`,
      );
    }
  }
  if (s.minimum !== undefined) {
    if (s.exclusiveMinimum ? x <= s.minimum : x < s.minimum) {
      invalid(
        ctx,
        path,
        x,
        s.exclusiveMinimum
          ? `should be greater than ${num(s.minimum)}`
          : `should be greater than or equal to ${num(s.minimum)}`,
      );
    }
  }
  if (s.multipleOf !== undefined && !Number.isInteger(x / s.multipleOf))
    invalid(ctx, path, x, `should be a multiple of ${num(s.multipleOf)}`);
}

function checkArray(x: unknown[], s: SchemaNode, path: string, ctx: Context): void {
  if (s.maxItems !== undefined && x.length > s.maxItems) {
    ctx.errs.push({ type: 'TooMany', field: path, value: x.length, detail: `must have at most ${s.maxItems} items` });
  }
  if (s.minItems !== undefined && x.length < s.minItems)
    invalid(ctx, path, x.length, `should have at least ${s.minItems} items`);
  if (s.uniqueItems && new Set(x.map(canonicalJson)).size !== x.length)
    invalid(ctx, path, '', "shouldn't contain duplicates");
  x.forEach((item, i) => validateValue(item, s.items, indexPath(path, i), ctx));
  checkListType(x, s, path, ctx.errs);
}

function checkObject(x: Record<string, unknown>, s: SchemaNode, path: string, ctx: Context): void {
  const count = Object.keys(x).length;
  if (s.maxProperties !== undefined && count > s.maxProperties) {
    ctx.errs.push({ type: 'TooMany', field: path, value: count, detail: `must have at most ${s.maxProperties} items` });
  }
  if (s.minProperties !== undefined && count < s.minProperties)
    invalid(ctx, path, count, `should have at least ${s.minProperties} properties`);
  const extra = additionalSchema(s);
  for (const key of Object.keys(x).sort()) {
    const prop = s.properties?.[key] ?? extra;
    if (prop) validateValue(x[key], prop, childPath(path, key), ctx);
  }
  for (const key of s.required ?? []) {
    if (!(key in x)) ctx.errs.push({ type: 'Required', field: childPath(path, key), detail: '' });
  }
  if (s['x-kubernetes-embedded-resource']) checkEmbeddedTypeMeta(x, path, ctx);
}

/** An embedded resource must say what it is (apiextensions schemaobjectmeta.Validate). */
function checkEmbeddedTypeMeta(x: Record<string, unknown>, path: string, ctx: Context): void {
  for (const key of ['kind', 'apiVersion']) {
    if (typeof x[key] !== 'string' || x[key] === '')
      ctx.errs.push({ type: 'Required', field: childPath(path, key), detail: 'must not be empty' });
  }
}

/** allOf/anyOf/oneOf/not carry value validations only (no types) in a structural schema. */
function checkJunctors(x: unknown, s: SchemaNode, path: string, ctx: Context): void {
  const run = (sub: SchemaNode) => {
    const subCtx = { ...ctx, errs: [] as FieldError[] };
    validateValue(x, sub, path, subCtx);
    return subCtx.errs;
  };
  for (const sub of s.allOf ?? []) ctx.errs.push(...run(sub));
  if (s.anyOf) {
    const results = s.anyOf.map(run);
    if (!results.some((r) => r.length === 0)) {
      invalid(ctx, path, x, 'must validate at least one schema (anyOf)');
      ctx.errs.push(...(results[0] ?? []));
    }
  }
  if (s.oneOf) {
    const results = s.oneOf.map(run);
    const passing = results.filter((r) => r.length === 0).length;
    if (passing !== 1) invalid(ctx, path, x, 'must validate one and only one schema (oneOf)');
    if (passing === 0) ctx.errs.push(...(results[0] ?? []));
  }
  if (s.not && run(s.not).length === 0) invalid(ctx, path, x, 'must not validate the schema (not)');
}
