// POST /api/v1/namespaces/{ns}/serviceaccounts/{name}/token (authentication.k8s.io/v1 TokenRequest, what
// `kubectl create token` sends): a signed ServiceAccount JWT (sa-tokens.ts) for the audiences asked (the API
// server's own by default), valid for expirationSeconds. The request is answered, never stored; the token
// authenticates to this server and to TokenReview until it expires or the ServiceAccount is deleted.
import type { ApiRequest, ApiResponse, ServerContext } from '../context.js';
import { q } from '../context.js';
import { invalid, notFound } from '../status.js';
import { objectKey } from '../store.js';
import { formatTime } from '../meta.js';
import { parseJsonBody } from '../object-pipeline.js';
import { API_AUDIENCES } from '../sa-tokens.js';

export async function createToken(ctx: ServerContext, req: ApiRequest): Promise<ApiResponse> {
  const name = req.name!;
  const namespace = req.namespace!;
  const sa = ctx.store.get(req.type.storageKey, objectKey(namespace, name))?.obj;
  if (!sa) throw notFound(q(req.type), name);
  const body = req.body ? parseJsonBody(req.body) : {};
  const spec = body.spec ?? {};
  const expirationSeconds = Number(spec.expirationSeconds ?? 3600);
  // pkg/apis/authentication/validation ValidateTokenRequest; the error names no object (NewInvalid(gk, "", errs)).
  if (expirationSeconds < 600) {
    throw invalid({ group: 'authentication.k8s.io', resource: 'tokenrequests', kind: 'TokenRequest' }, '', [
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${expirationSeconds}: may not specify a duration less than 10 minutes`,
        field: 'spec.expirationSeconds',
      },
    ]);
  }
  const audiences: string[] = spec.audiences?.length ? spec.audiences : API_AUDIENCES;
  const token = ctx.saTokens.issue({ namespace, name, uid: sa.metadata.uid }, audiences, expirationSeconds);
  return {
    code: 201,
    body: {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name, namespace, creationTimestamp: null },
      spec: {
        audiences,
        expirationSeconds,
        boundObjectRef: spec.boundObjectRef ?? null,
      },
      status: { token, expirationTimestamp: formatTime(ctx.clock.now() + expirationSeconds * 1000) },
    },
  };
}
