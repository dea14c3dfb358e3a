// authorization.k8s.io/v1 SelfSubjectAccessReview and SubjectAccessReview ("kubectl auth can-i"): virtual
// resources, answered from the same authorizer that guards every request and never stored (201 with the
// review and its status, as pkg/registry/authorization does).
import type { ApiRequest, ApiResponse, ServerContext } from '../context.js';
import { q } from '../context.js';
import { decide, type AuthRequest } from '../auth.js';
import { invalid } from '../status.js';
import { parseJsonBody } from '../object-pipeline.js';
import type { Identity } from '../types.js';
import type { SchemaCause } from '../types.js';

const RESOURCE_KEYS = ['namespace', 'verb', 'group', 'version', 'resource', 'subresource', 'name'];

function attributesOf(spec: any): AuthRequest {
  const r = spec.resourceAttributes;
  if (r) {
    return {
      verb: r.verb ?? '',
      group: r.group ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource || undefined,
      namespace: r.namespace || undefined,
      name: r.name || undefined,
    };
  }
  return {
    verb: spec.nonResourceAttributes.verb ?? '',
    group: '',
    resource: '',
    path: spec.nonResourceAttributes.path ?? '',
  };
}

/** Exactly one of resourceAttributes / nonResourceAttributes (pkg/apis/authorization/validation). */
function validateSpec(spec: any, subject: boolean): SchemaCause[] {
  const causes: SchemaCause[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    causes.push({
      reason: 'FieldValueInvalid',
      field: 'spec.nonResourceAttributes',
      message: `Invalid value: ${JSON.stringify(JSON.stringify(spec.nonResourceAttributes))}: cannot be specified in combination with resourceAttributes`,
    });
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    causes.push({
      reason: 'FieldValueInvalid',
      field: 'spec.resourceAttributes',
      message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    });
  }
  if (subject && !spec.user && !spec.groups?.length) {
    causes.push({
      reason: 'FieldValueInvalid',
      field: 'spec.user',
      message: 'Invalid value: "": at least one of user or group must be specified',
    });
  }
  return causes;
}

export async function createAccessReview(ctx: ServerContext, req: ApiRequest): Promise<ApiResponse> {
  const type = req.type;
  const body = parseJsonBody(req.body);
  const spec = body.spec && typeof body.spec === 'object' ? body.spec : {};
  const subject = type.resource === 'subjectaccessreviews';
  const causes = validateSpec(spec, subject);
  if (causes.length) throw invalid(q(type), '', causes);
  const who: Identity = subject
    ? {
        username: spec.user ?? '',
        groups: [...(spec.groups ?? []), ...(spec.user === 'system:anonymous' ? [] : ['system:authenticated'])],
      }
    : req.who;
  const { allowed, reason } = decide(ctx.store, who, attributesOf(spec));
  const ordered: any = {};
  if (spec.resourceAttributes) {
    ordered.resourceAttributes = {};
    for (const k of RESOURCE_KEYS)
      if (spec.resourceAttributes[k]) ordered.resourceAttributes[k] = spec.resourceAttributes[k];
  }
  if (spec.nonResourceAttributes)
    ordered.nonResourceAttributes = { path: spec.nonResourceAttributes.path, verb: spec.nonResourceAttributes.verb };
  if (subject) for (const k of ['user', 'groups', 'extra', 'uid']) if (spec[k] !== undefined) ordered[k] = spec[k];
  const status: any = { allowed };
  if (reason) status.reason = reason;
  return {
    code: 201,
    body: {
      kind: type.kind,
      apiVersion: `${type.group}/${type.version}`,
      metadata: { creationTimestamp: null },
      spec: ordered,
      status,
    },
  };
}
