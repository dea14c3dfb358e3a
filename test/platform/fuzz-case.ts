// The shape of a fuzz case and the well-formed request it starts from: path parameters naming existing objects,
// required query parameters, a valid body, the admin's token. Each mutation (fuzz-request-cases.ts,
// fuzz-body-cases.ts) makes one thing of it hostile.
import { sampleOf, type Operation, type Schema } from './fuzz-openapi.js';
import type { Random } from './fuzz-random.js';

export interface FuzzCase {
  op: string;
  /** What was made hostile, for the failure message. */
  what: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** true: must be 4xx. false: a read with odd free-form text, which may also answer 2xx. */
  refused: boolean;
}

export interface Target {
  /** Path parameter values naming an existing object for this operation. */
  params: Record<string, string>;
  /** A valid body (the fuzz makes it hostile), or undefined to build one from the schema. */
  body?: unknown;
}

export interface CaseContext {
  op: Operation;
  target: Target;
  token: string;
  resolve: (s: Schema) => Schema;
  /** All methods the operation's path answers. */
  pathMethods: Set<string>;
}

export type Mutation = (c: CaseContext, r: Random) => FuzzCase | undefined;

export const HUGE_NUMBER = '1e400';

export function build(
  c: CaseContext,
  what: string,
  opts: {
    params?: Record<string, string>;
    query?: Array<[string, string]>;
    body?: string | Buffer | null;
    headers?: Record<string, string | undefined>;
    method?: string;
    refused?: boolean;
  } = {},
): FuzzCase {
  const params = { ...encodedParams(c), ...opts.params };
  const path = c.op.path.replace(/\{(\w+)\}/g, (_, p: string) => params[p] ?? 'missing');
  const query = opts.query ?? baseQuery(c);
  const qs = query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
  const body = opts.body === undefined ? baseBody(c) : (opts.body ?? undefined);
  return {
    op: c.op.key,
    what,
    method: opts.method ?? c.op.method,
    url: qs ? `${path}?${qs}` : path,
    headers: definedOnly({
      authorization: `Bearer ${c.token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    }),
    ...(body !== undefined ? { payload: body } : {}),
    refused: opts.refused ?? true,
  };
}

/** Percent-encoding, where a lone surrogate (not encodable as UTF-8) goes as the bytes a careless client sends. */
export function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
}

/** Headers set to undefined are left out (not sent at all). */
const definedOnly = (h: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(h).filter((e): e is [string, string] => e[1] !== undefined));

const encodedParams = (c: CaseContext) =>
  Object.fromEntries(Object.entries(c.target.params).map(([k, v]) => [k, encodeURIComponent(v)]));

/** Required query parameters without a default, filled with a schema-valid value. */
export function baseQuery(c: CaseContext): Array<[string, string]> {
  return c.op.params
    .filter((p) => p.in === 'query' && p.required && c.resolve(p.schema).default === undefined)
    .map((p) => [p.name, String(sampleOf(p.schema, c.resolve))]);
}

export function baseBodyValue(c: CaseContext): unknown {
  if (!c.op.body) return undefined;
  return structuredClone(c.target.body ?? sampleOf(c.op.body, c.resolve));
}

export function baseBody(c: CaseContext): string | undefined {
  const v = baseBodyValue(c);
  return v === undefined ? undefined : JSON.stringify(v);
}

export function show(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return s.length > 80 ? `${s.slice(0, 60)}…(${s.length} chars)` : s;
}
