// A minimal OpenAPI v3 for kubectl: it reads /openapi/v3 to learn that PATCH of a kind accepts fieldValidation
// (its server-side validation check) and looks up kind schemas for apply. Only what kubectl reads is served.
import { createHash } from 'node:crypto';
import type { Registry } from './registry.js';
import type { ResourceType } from './types.js';

const gvPath = (t: ResourceType) => (t.group ? `apis/${t.group}/${t.version}` : `api/${t.version}`);
const gvk = (t: ResourceType) => ({ group: t.group, version: t.version, kind: t.kind });
const schemaName = (t: ResourceType) => `${(t.group || 'core').split('.').reverse().join('.')}.${t.version}.${t.kind}`;

function gvDocument(types: ResourceType[]) {
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  const query = (name: string) => ({ name, in: 'query', schema: { type: 'string', uniqueItems: true } });
  for (const t of types) {
    const base = `/${gvPath(t)}${t.namespaced ? '/namespaces/{namespace}' : ''}/${t.resource}`;
    const ext = { 'x-kubernetes-group-version-kind': gvk(t) };
    const ok = {
      200: {
        description: 'OK',
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName(t)}` } } },
      },
    };
    paths[base] = {
      get: { operationId: `list${t.kind}`, ...ext, 'x-kubernetes-action': 'list', responses: ok },
      post: {
        operationId: `create${t.kind}`,
        ...ext,
        'x-kubernetes-action': 'post',
        parameters: ['dryRun', 'fieldManager', 'fieldValidation'].map(query),
        responses: ok,
      },
    };
    paths[`${base}/{name}`] = {
      get: { operationId: `read${t.kind}`, ...ext, 'x-kubernetes-action': 'get', responses: ok },
      put: {
        operationId: `replace${t.kind}`,
        ...ext,
        'x-kubernetes-action': 'put',
        parameters: ['dryRun', 'fieldManager', 'fieldValidation'].map(query),
        responses: ok,
      },
      patch: {
        operationId: `patch${t.kind}`,
        ...ext,
        'x-kubernetes-action': 'patch',
        parameters: ['dryRun', 'fieldManager', 'fieldValidation', 'force'].map(query),
        responses: ok,
      },
      delete: { operationId: `delete${t.kind}`, ...ext, 'x-kubernetes-action': 'delete', responses: ok },
    };
    schemas[schemaName(t)] = {
      ...(t.custom?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
      'x-kubernetes-group-version-kind': [gvk(t)],
    };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.26.5' }, paths, components: { schemas } };
}

/** GET /openapi/v3 (index) and /openapi/v3/<gv path>. */
export function openApiV3(registry: Registry, path: string): unknown {
  const byGv = new Map<string, ResourceType[]>();
  for (const t of registry.all()) byGv.set(gvPath(t), [...(byGv.get(gvPath(t)) ?? []), t]);
  const rest = path.replace(/^\/openapi\/v3\/?/, '');
  if (!rest) {
    const paths: Record<string, unknown> = {};
    for (const [gv, types] of byGv) {
      const hash = createHash('sha256')
        .update(JSON.stringify(types.map((t) => [t.resource, t.custom?.storageVersionHash])))
        .digest('hex')
        .slice(0, 16);
      paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${hash}` };
    }
    return { paths };
  }
  const types = byGv.get(rest);
  return types ? gvDocument(types) : undefined;
}
