// POST /api/v1/namespaces/{ns}/serviceaccounts/{name}/token (authentication.k8s.io/v1 TokenRequest, what
// `kubectl create token` sends): a bearer token that authenticates as the ServiceAccount, so clients that only hold
// a kubeconfig can act as another identity on the double as on a real server. The token is opaque (upstream signs
// a JWT) and lives as long as the server; the request is answered, never stored.
import { randomBytes } from 'node:crypto';
import type { ApiRequest, ApiResponse, ServerContext } from '../context.js';
import { q } from '../context.js';
import { invalid, notFound } from '../status.js';
import { objectKey } from '../store.js';
import { formatTime } from '../meta.js';
import { parseJsonBody } from '../object-pipeline.js';

const DEFAULT_AUDIENCES = ['https://kubernetes.default.svc.cluster.local'];

export async function createToken(ctx: ServerContext, req: ApiRequest): Promise<ApiResponse> {
  const name = req.name!;
  const namespace = req.namespace!;
  if (!ctx.store.get(req.type.storageKey, objectKey(namespace, name))) throw notFound(q(req.type), name);
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
  const token = randomBytes(32).toString('base64url');
  ctx.tokens.set(token, {
    username: `system:serviceaccount:${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
  });
  return {
    code: 201,
    body: {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name, namespace, creationTimestamp: null },
      spec: {
        audiences: spec.audiences?.length ? spec.audiences : DEFAULT_AUDIENCES,
        expirationSeconds,
        boundObjectRef: spec.boundObjectRef ?? null,
      },
      status: { token, expirationTimestamp: formatTime(ctx.clock.now() + expirationSeconds * 1000) },
    },
  };
}
