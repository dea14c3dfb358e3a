// Who changes something through the API, for the expiry history (services/expiry/expiry-record.ts) and what a
// request creates: the `by` and `reason` a request may give, and its origin, the API token's holder and the route
// it came through. The audit record of each request is written once, by audit-trail.ts.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AuditOrigin } from '../services/expiry/expiry-record.js';
import type { Requester } from '../services/operations/operation.js';

export const By = Type.String({
  minLength: 1,
  maxLength: 128,
  description: "Who asks (audited); default: the API token's holder",
});
export const Reason = Type.String({ minLength: 1, maxLength: 1024, description: 'Why (audited)' });

/** Optional `by` and `reason`, for request bodies that change an expiry. */
export const AuditFields = { by: Type.Optional(By), reason: Type.Optional(Reason) };

export const auditOrigin = (req: FastifyRequest): AuditOrigin => ({
  principal: req.principal,
  via: `${req.method} ${req.routeOptions.url}`,
});

/** Who asks, and the request's Idempotency-Key (http/idempotency.ts), for what the request creates. */
export const requester = (req: FastifyRequest): Requester => ({
  by: req.principal,
  ...(req.idempotency ? { idempotency: req.idempotency } : {}),
});
