import { applyDefaults } from './defaults.js';
import { toCause, type FieldError, type StatusCause } from './field-error.js';
import { dropNonNullableNulls, prune } from './prune.js';
import { checkScale, type ScaleSubresource } from './scale.js';
import { isObject, type SchemaNode } from './schema-node.js';
import { validateValue } from './validate-value.js';

export type { StatusCause } from './field-error.js';
export { invalidStatus, type InvalidStatus } from './invalid-status.js';
export type { SchemaNode } from './schema-node.js';
export type { ScaleSubresource } from './scale.js';

export interface ValidateOptions {
  fieldValidation: 'Strict' | 'Warn' | 'Ignore';
  /** Prefix for every reported path (causes and unknownFields); the value is still treated as a resource root. */
  root?: string;
  /**
   * Causes the server found itself (ObjectMeta validation: name, generateName, finalizers...). They are listed
   * first and, as upstream, a blocking one among them also triggers the skipped-CEL `<nil>` cause.
   */
  extraCauses?: StatusCause[];
}

export interface CompileOptions {
  /** The CRD version's scale subresource, if any: adds apiextensions' replica checks. */
  scale?: ScaleSubresource;
}

export interface CompiledSchema {
  /**
   * Prunes unknown fields, applies defaults, validates. `value` is the pruned+defaulted copy (the input is never
   * mutated; do not store `value` when there are causes). `unknownFields` are the pruned paths, sorted, for the
   * Warning headers or the Strict 400; empty with fieldValidation Ignore (pruning still happens).
   */
  validate(
    obj: unknown,
    opts: ValidateOptions,
  ): {
    causes: StatusCause[];
    unknownFields: string[];
    value: any;
  };
}

/**
 * Errors after which kube-apiserver 1.26 skips x-kubernetes-validations and adds one `<nil>` cause instead
 * (customresource strategy hasBlockingErr). NotSupported joined this list only in later releases: golden 13 (an
 * enum error alone) has no `<nil>` cause, goldens 14-16 and 40 do.
 */
const blocksCel = new Set<FieldError['type']>(['Required', 'TooLong', 'TooMany', 'TypeInvalid']);
const blockingReasons = new Set([...blocksCel].map((t) => `FieldValue${t}`));
const celSkipped: FieldError = {
  type: 'Invalid',
  field: null,
  value: null,
  detail:
    'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
};

/**
 * Compiles a CRD's structural `openAPIV3Schema`. Processing follows the apiextensions request path: prune (and
 * coerce metadata to ObjectMeta), drop non-nullable nulls, default, then validate. CEL rules are not evaluated;
 * their presence only decides whether the `<nil>` cause above is added.
 */
export function compileSchema(openAPIV3Schema: object, options: CompileOptions = {}): CompiledSchema {
  const schema = structuredClone(openAPIV3Schema) as SchemaNode;
  const hasCelRules = containsCelRules(schema);
  const patterns = new Map<string, { test(s: string): boolean }>();
  return {
    validate(obj, opts) {
      const prefix = opts.root ?? '';
      const value = structuredClone(obj);
      const pruned = prune(value, schema, prefix, true);
      dropNonNullableNulls(value, schema);
      applyDefaults(value, schema);
      const errs: FieldError[] = [];
      validateValue(value, schema, prefix, { errs, patterns });
      if (options.scale) checkScale(value, options.scale, errs);
      const extra = opts.extraCauses ?? [];
      const blocked = errs.some((e) => blocksCel.has(e.type)) || extra.some((c) => blockingReasons.has(c.reason));
      if (hasCelRules && blocked) errs.push(celSkipped);
      return {
        causes: [...extra, ...errs.map(toCause)],
        unknownFields: opts.fieldValidation === 'Ignore' ? [] : pruned.sort(),
        value,
      };
    },
  };
}

function containsCelRules(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(containsCelRules);
  if (!isObject(node)) return false;
  if (Array.isArray(node['x-kubernetes-validations']) && node['x-kubernetes-validations'].length > 0) return true;
  return Object.values(node).some(containsCelRules);
}
