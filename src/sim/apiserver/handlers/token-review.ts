// authentication.k8s.io/v1 TokenReview: who a token belongs to, answered as pkg/registry/authentication/tokenreview
// does: 201 with the spec echoed and a status; a token this server does not accept is not an error but a status
// without `authenticated` (omitempty) and with the authenticator's error. Audiences: the token must be for one of
// spec.audiences (the API server's own when none are given), and status.audiences says which.
import type { ApiRequest, ApiResponse, ServerContext } from '../context.js';
import { lookupToken } from '../auth.js';
import { badRequest } from '../status.js';
import { parseJsonBody } from '../object-pipeline.js';
import { API_AUDIENCES } from '../sa-tokens.js';

export async function createTokenReview(ctx: ServerContext, req: ApiRequest): Promise<ApiResponse> {
  const body = parseJsonBody(req.body);
  const spec = body.spec && typeof body.spec === 'object' ? body.spec : {};
  const token = typeof spec.token === 'string' ? spec.token : '';
  if (!token) throw badRequest('token is required for TokenReview in authentication');
  const asked: string[] = Array.isArray(spec.audiences)
    ? spec.audiences.filter((a: unknown) => typeof a === 'string')
    : [];
  const found = lookupToken(ctx.tokens, ctx.saTokens, token, asked.length ? asked : API_AUDIENCES);
  const status =
    'error' in found
      ? { user: {}, error: `[${found.error}]` }
      : {
          authenticated: true,
          user: {
            username: found.who.username,
            ...((found.who as { uid?: string }).uid ? { uid: (found.who as { uid?: string }).uid } : {}),
            groups: [...new Set([...found.who.groups, 'system:authenticated'])],
          },
          audiences: found.audiences,
        };
  return {
    code: 201,
    body: {
      kind: 'TokenReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { token, ...(asked.length ? { audiences: asked } : {}) },
      status,
    },
  };
}
