// Kubernetes `Status` bodies with the exact reasons, messages and details the real API server sends
// (see test/fixtures/kube-golden). Key order follows the Go struct (kind, apiVersion, metadata, status, message,
// reason, details, code).

export interface StatusCause {
  reason: string;
  message: string;
  field?: string;
}
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}
export interface Qualified {
  group: string;
  resource: string;
  kind: string;
}

export function statusBody(
  code: number,
  reason: string,
  message: string,
  details?: StatusDetails,
  metadata: Record<string, unknown> = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = { kind: 'Status', apiVersion: 'v1', metadata, status: 'Failure' };
  if (message) body.message = message;
  if (reason) body.reason = reason;
  if (details) body.details = cleanDetails(details);
  body.code = code;
  return body;
}

function cleanDetails(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes) out.causes = d.causes;
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

/** An error that carries a complete HTTP answer: thrown by handlers, rendered once by the server. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly body: Record<string, unknown> | string,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'string' ? body : String(body.message ?? ''));
  }
}

export const qualifiedName = (q: Qualified) => (q.group ? `${q.resource}.${q.group}` : q.resource);
const kindGroup = (q: Qualified) => (q.group ? `${q.kind}.${q.group}` : q.kind);

export const notFound = (q: Qualified, name: string) =>
  new ApiError(
    404,
    statusBody(404, 'NotFound', `${qualifiedName(q)} "${name}" not found`, { name, group: q.group, kind: q.resource }),
  );

export const alreadyExists = (q: Qualified, name: string) =>
  new ApiError(
    409,
    statusBody(409, 'AlreadyExists', `${qualifiedName(q)} "${name}" already exists`, {
      name,
      group: q.group,
      kind: q.resource,
    }),
  );

export const conflict = (q: Qualified, name: string) =>
  new ApiError(
    409,
    statusBody(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualifiedName(q)} "${name}": ` +
        'the object has been modified; please apply your changes to the latest version and try again',
      { name, group: q.group, kind: q.resource },
    ),
  );

/**
 * A storage precondition that failed inside etcd3's GuaranteedUpdate (storage.Preconditions.Check), surfaced as
 * InterpretUpdateError's Conflict with the StorageError text.
 */
export const storageConflict = (q: Qualified, name: string, etcdKey: string, detail: string) =>
  new ApiError(
    409,
    statusBody(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualifiedName(q)} "${name}": ` +
        `StorageError: invalid object, Code: 4, Key: ${etcdKey}, ResourceVersion: 0, AdditionalErrorMsg: ${detail}`,
      { name, group: q.group, kind: q.resource },
    ),
  );

/** Precondition failures name the Kind, not the resource (golden 73). */
export const preconditionConflict = (q: Qualified, name: string, detail: string) =>
  new ApiError(
    409,
    statusBody(409, 'Conflict', `Operation cannot be fulfilled on ${kindGroup(q)} "${name}": ${detail}`, {
      name,
      group: q.group,
      kind: q.kind,
    }),
  );

/** 422 Invalid. `byResource` switches details.kind and the message prefix to the plural (golden 32). */
export function invalid(q: Qualified, name: string, causes: StatusCause[], byResource = false): ApiError {
  // The message lists each distinct error once even when a cause repeats (golden 66).
  const parts = [...new Set(causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message)))];
  const joined = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  const prefix = byResource ? qualifiedName(q) : kindGroup(q);
  return new ApiError(
    422,
    statusBody(422, 'Invalid', `${prefix} "${name}" is invalid: ${joined}`, {
      name,
      group: q.group,
      kind: byResource ? q.resource : q.kind,
      causes,
    }),
  );
}

export const badRequest = (message: string) => new ApiError(400, statusBody(400, 'BadRequest', message));

export const methodNotSupported = (q: Qualified, verb: string) =>
  new ApiError(
    405,
    statusBody(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${qualifiedName(q)}"`, {
      group: q.group,
      kind: q.resource,
    }),
  );

export const unsupportedPatch = () =>
  new ApiError(
    415,
    statusBody(
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - ' +
        'accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    ),
  );

export const unsupportedPatchBuiltin = () =>
  new ApiError(
    415,
    statusBody(
      415,
      'UnsupportedMediaType',
      'the body of the request was in an unknown format - ' +
        'accepted media types include: application/json-patch+json, application/merge-patch+json, ' +
        'application/apply-patch+yaml, application/strategic-merge-patch+json',
    ),
  );

export const unauthorized = () => new ApiError(401, statusBody(401, 'Unauthorized', 'Unauthorized'));

export const pageNotFound = () => new ApiError(404, '404 page not found\n');

export function forbidden(q: Qualified, name: string | undefined, reason: string): ApiError {
  const subject = name ? `${qualifiedName(q)} "${name}"` : qualifiedName(q);
  return new ApiError(
    403,
    statusBody(403, 'Forbidden', `${subject} is forbidden: ${reason}`, { name, group: q.group, kind: q.resource }),
  );
}

export const gone = (message: string, metadata: Record<string, unknown> = {}) =>
  new ApiError(410, statusBody(410, 'Expired', message, undefined, metadata));

export function tooManyRequests(retryAfterSeconds: number): ApiError {
  return new ApiError(
    429,
    statusBody(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds }),
    { 'retry-after': String(retryAfterSeconds) },
  );
}

/**
 * kube-apiserver's max-in-flight filter (k8s.io/apiserver/pkg/server/filters/maxinflight.go, tooManyRequests; APF's
 * rejection uses the same function): Go's http.Error, so a plain-text body, not a Status. client-go builds the
 * TooManyRequests Status itself from the code and Retry-After.
 */
export const tooManyRequestsInFlight = () =>
  new ApiError(429, 'Too many requests, please try again later.\n', {
    'retry-after': '1',
    'x-content-type-options': 'nosniff',
  });

export const internalError = (message: string) =>
  new ApiError(
    500,
    statusBody(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ reason: '', message }] }),
  );

export function serviceUnavailable(message: string, retryAfterSeconds?: number): ApiError {
  return new ApiError(
    503,
    statusBody(503, 'ServiceUnavailable', message, retryAfterSeconds ? { retryAfterSeconds } : undefined),
    retryAfterSeconds ? { 'retry-after': String(retryAfterSeconds) } : {},
  );
}

export function successStatus(details: StatusDetails): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: cleanDetails(details) };
}
