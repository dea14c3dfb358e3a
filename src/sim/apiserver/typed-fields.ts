// Fields of built-in kinds that Go decodes with a type of its own, so a bad value fails the request's decoding
// before anything else looks at it: metav1.Time (RFC 3339) and metav1.MicroTime (RFC 3339 with exactly six
// fraction digits). Custom resources are decoded as unstructured JSON; their schemas judge their values instead.
import { goTimeParseError, RFC3339, RFC3339_MICRO } from './go-time.js';
import { ApiError, badRequest, statusBody } from './status.js';
import type { ResourceType } from './types.js';

/** A timestamp field: its JSON path, the Go struct that holds it (for the decoder's message), and its precision. */
export interface TimeField {
  path: string[];
  struct: string;
  micro?: boolean;
}

/** The JSON type name encoding/json uses in "cannot unmarshal X into ...". */
export function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

/** The decoder's error for the first bad timestamp in `obj`, or undefined. */
function timeFieldError(obj: any, fields: TimeField[]): string | undefined {
  for (const f of fields) {
    let v = obj;
    for (const k of f.path) v = v !== null && typeof v === 'object' && !Array.isArray(v) ? v[k] : undefined;
    if (v === undefined || v === null) continue; // null is the zero time
    if (typeof v !== 'string')
      return `json: cannot unmarshal ${goJsonType(v)} into Go struct field ${f.struct}.${f.path.join('.')} of type string`;
    const problem = goTimeParseError(v, f.micro ? RFC3339_MICRO : RFC3339);
    if (problem) return problem;
  }
  return undefined;
}

/** encoding/json's Marshal of a map: keys sorted at every level, <, > and & escaped. */
function goJson(v: unknown): string {
  const sorted = (x: any): any =>
    Array.isArray(x)
      ? x.map(sorted)
      : x && typeof x === 'object'
        ? Object.fromEntries(
            Object.keys(x)
              .sort()
              .map((k) => [k, sorted(x[k])]),
          )
        : x;
  return JSON.stringify(sorted(v)).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Fails like the API server when a built-in object's typed fields do not decode: a body sent to POST or PUT is a
 * 400 ("Event in version \"v1\" cannot be handled as a Event: parsing time ..."); the result of a JSON or merge
 * patch is a 422 on the field "patch" carrying the patched document (patch.go applyPatchToCurrentObject).
 */
export function checkTypedFields(type: ResourceType, obj: any, patched: boolean): void {
  const problem =
    (type.builtin?.timeFields ? timeFieldError(obj, type.builtin.timeFields) : undefined) ??
    type.builtin?.decodeError?.(obj);
  if (!problem) return;
  if (!patched)
    throw badRequest(`${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: ${problem}`);
  // field.Invalid prints a string value with %q; for JSON text (no raw control characters) that is JSON quoting.
  const message = `Invalid value: ${JSON.stringify(goJson(obj))}: ${problem}`;
  throw new ApiError(
    422,
    statusBody(422, 'Invalid', ` "" is invalid: patch: ${message}`, {
      causes: [{ reason: 'FieldValueInvalid', message, field: 'patch' }],
    }),
  );
}
