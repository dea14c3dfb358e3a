/**
 * k8s.io/apimachinery/pkg/util/validation/field errors as kube-apiserver v1.26 renders them in Status causes.
 * A cause's message is Error.ErrorBody(): "<type string>[: <value>][: <detail>]", where Required, Forbidden and
 * TooLong print no value, and the value is Go-formatted (%q for strings, %v for numbers and booleans, %#v else).
 */
export type FieldErrorType =
  'Required' | 'Invalid' | 'NotSupported' | 'Duplicate' | 'TooLong' | 'TooMany' | 'TypeInvalid' | 'Forbidden';

export interface FieldError {
  type: FieldErrorType;
  /** Field path; null prints as "<nil>" (the CEL "some validation rules were not checked" cause). */
  field: string | null;
  value?: unknown;
  detail?: string;
}

export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

const typeText: Record<FieldErrorType, string> = {
  Required: 'Required value',
  Invalid: 'Invalid value',
  NotSupported: 'Unsupported value',
  Duplicate: 'Duplicate value',
  TooLong: 'Too long',
  TooMany: 'Too many',
  TypeInvalid: 'Invalid value',
  Forbidden: 'Forbidden',
};

const valueless = new Set<FieldErrorType>(['Required', 'Forbidden', 'TooLong']);

export function errorBody(e: FieldError): string {
  let s = typeText[e.type];
  if (!valueless.has(e.type)) s += `: ${goValue(e.value)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

export function toCause(e: FieldError): StatusCause {
  return { reason: `FieldValue${e.type}`, message: errorBody(e), field: e.field ?? '<nil>' };
}

/** "<field>: <body>", the form used inside the aggregated Status message. */
export function causeText(c: StatusCause): string {
  return `${c.field}: ${c.message}`;
}

/** Go's fmt rendering of a decoded JSON value as field.Error.ErrorBody does it. */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '"null"';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  return goSyntax(v);
}

export function goQuote(s: string): string {
  return JSON.stringify(s);
}

function goNumber(n: number): string {
  // int64 prints plainly; float64 %v uses the shortest representation with a two-digit exponent (1e+21).
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  return String(n).replace(/e([+-])(\d)$/, 'e$10$2');
}

/** %#v of map[string]interface{} / []interface{} values (used by Duplicate causes of list-type map). */
function goSyntax(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntax).join(', ')}}`;
  const entries = Object.keys(v)
    .sort()
    .map((k) => `${goQuote(k)}:${goSyntax((v as Record<string, unknown>)[k])}`);
  return `map[string]interface {}{${entries.join(', ')}}`;
}
