// The one error table of the HTTP edge (ARCHITECTURE.md, "Errors"): domain errors, Fastify's validation and
// client errors, and everything else, each to an RFC 9457 problem+json body.
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  DomainError,
  Invalid,
  QuotaExceeded,
  Unavailable,
  type FieldIssue,
  type QuotaDetails,
} from '../hive/errors.js';
import { isRedisDown } from '../redis/connect.js';
import { validationIssues } from './validation-issues.js';

export const PROBLEM_TYPE = 'application/problem+json';

export interface Problem {
  type: 'about:blank';
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code: string;
  errors?: FieldIssue[];
  correlationId?: string;
  /** QuotaExceeded only: the team, which quota, its limit and the current use. */
  team?: QuotaDetails['team'];
  quota?: QuotaDetails['quota'];
  limit?: number;
  current?: number;
  requested?: number;
}

const DOMAIN_STATUS: Record<DomainError['code'], number> = {
  NotFound: 404,
  Conflict: 409,
  Invalid: 422,
  Forbidden: 403,
  QuotaExceeded: 403,
  Unavailable: 503,
};

/**
 * Kubernetes names reach 253 characters and job ids 264; a longer run of text (between spaces or `/`) is a value
 * nobody needs back whole, so it is cut to its first characters. A message is capped as a whole as well, so a long
 * value with spaces in it is not echoed back whole either.
 */
const LONGEST_NAME = 264;
const SHOWN = 64;
const MAX_TEXT = 2000;
/** Every unknown key of a 1 MiB body is an error of its own; the answer names the first ones. */
const MAX_ISSUES = 50;
const LONG_RUN = new RegExp(`[^\\s/]{${LONGEST_NAME + 1},}`, 'g');

/** Text that may carry caller input, made safe to echo: long runs cut to their first 64 characters. */
export function clip(text: string, max = MAX_TEXT): string {
  const short = text.replace(LONG_RUN, (run) => `${run.slice(0, SHOWN)}…`);
  return short.length > max ? `${short.slice(0, max)}…` : short;
}

/**
 * A field as every answer names it: array items in brackets, `windows[0].start`, as the services, Kubernetes and
 * the docs write them. The schema validator's paths come dotted (`windows.0.start`); an all-digit segment is an
 * array index there (or, rarely, a map key of digits, which reads as well as `labels[123]`).
 */
export function fieldPath(field: string): string {
  return field.replace(/(?:^|\.)(\d+)(?=$|\.|\[)/g, '[$1]');
}

/** Every problem the API answers is built here, so no answer echoes a huge input whatever the route. */
export function problem(status: number, code: string, detail?: string, extra: Partial<Problem> = {}): Problem {
  const { errors, ...rest } = extra;
  const shown = errors?.slice(0, MAX_ISSUES).map((i) => ({ field: clip(fieldPath(i.field)), reason: clip(i.reason) }));
  const more =
    errors && errors.length > MAX_ISSUES ? ` (${errors.length} problems; the first ${MAX_ISSUES} are listed)` : '';
  return {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    code,
    ...(detail ? { detail: `${clip(detail)}${more}` } : {}),
    ...rest,
    ...(shown ? { errors: shown } : {}),
  };
}

export function sendProblem(reply: FastifyReply, p: Problem): FastifyReply {
  return reply
    .code(p.status)
    .type(PROBLEM_TYPE)
    .send({ ...p, instance: clip(reply.request.url) });
}

export function toProblem(err: unknown, request: FastifyRequest): Problem {
  if (err instanceof DomainError) {
    const status = DOMAIN_STATUS[err.code];
    const fields = err instanceof Invalid && err.fields.length > 0 ? { errors: err.fields } : {};
    const quota = err instanceof QuotaExceeded ? err.quota : {};
    return problem(status, err.code, err.message, { ...fields, ...quota });
  }
  const e = err as FastifyError;
  if (e && Array.isArray(e.validation)) {
    const where = e.validationContext ?? 'body';
    const errors = validationIssues(e.validation).map((i) => ({ ...i, field: fieldPath(i.field) }));
    const detail = `invalid ${where}: ${errors.map((x) => `${x.field || where} ${x.reason}`).join('; ')}`;
    // A body that parsed but says the wrong thing (a wrong type, an unknown field) is unprocessable content, as
    // any other refused value is; a bad path or query string is a bad request (RFC 9110, 15.5.1 and 15.5.21).
    return where === 'body'
      ? problem(422, 'Invalid', detail, { errors })
      : problem(400, 'BadRequest', detail, { errors });
  }
  if (e instanceof Error && isRedisDown(e))
    return problem(503, 'Unavailable', 'the job store (Redis) is unavailable; retry shortly');
  // Fastify's own client errors (malformed JSON, unsupported media type, body too large) are safe to show.
  if (e && typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    if (e.statusCode === 415)
      return problem(
        415,
        'BadRequest',
        `send the body as JSON (Content-Type: application/json), not ${request.headers['content-type']?.slice(0, 100) ?? 'without a type'}`,
      );
    return problem(e.statusCode, 'BadRequest', e.message);
  }
  return problem(500, 'InternalError', 'an unexpected error occurred; the log has the details', {
    correlationId: String(request.id),
  });
}

export function retryAfterOf(err: unknown): number | undefined {
  if (err instanceof Unavailable) return err.retryAfterSeconds ?? 5;
  if (isRedisDown(err)) return 5;
  return undefined;
}
