// Steps every write shares: decoding with pruning of unknown fields (Warning headers, or 400 under
// fieldValidation=Strict), schema defaults and validation, metadata validation, and wire key order.
import type { ApiRequest, ServerContext } from './context.js';
import { q } from './context.js';
import type { ResourceType, SchemaCause } from './types.js';
import { ApiError, badRequest, forbidden, invalid, statusBody } from './status.js';
import { OBJECT_META_FIELDS, validateMeta, goStringSlice } from './meta.js';
import { orderByShape, sortDeep } from './serialize.js';
import { goJsonType } from './typed-fields.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export function fieldValidationOf(req: ApiRequest): FieldValidation {
  const v = req.query.get('fieldValidation');
  if (!v) return 'Warn';
  if (v === 'Strict' || v === 'Warn' || v === 'Ignore') return v;
  throw badRequest(`fieldValidation parameter unsupported: ${v}`);
}

export function parseJsonBody(raw: string): any {
  try {
    const v = JSON.parse(raw);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('expected an object');
    return v;
  } catch (err) {
    throw badRequest(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
}

export interface Decoded {
  obj: any;
  causes: SchemaCause[];
}

/** Prunes unknown fields and applies schema defaults; validation causes are returned, not thrown (they come later). */
export function decode(ctx: ServerContext, req: ApiRequest, input: any): Decoded {
  const mode = fieldValidationOf(req);
  const type = req.type;
  const { metadata = {}, ...rest } = input ?? {};
  checkMetaTypes(type, metadata);
  const unknown: string[] = [];
  const meta: any = {};
  for (const [k, v] of Object.entries(metadata ?? {})) {
    if (!OBJECT_META_FIELDS.has(k)) unknown.push(`metadata.${k}`);
    else if (v === null || (typeof v === 'object' && Object.keys(v).length === 0))
      continue; // omitempty in ObjectMeta
    else meta[k] = v;
  }
  let body = rest;
  let causes: SchemaCause[] = [];
  const schema = type.custom?.schema ?? type.builtin?.schema;
  if (schema) {
    const result = schema.validate(rest, { fieldValidation: mode });
    body = result.value ?? rest;
    causes = result.causes;
    unknown.push(...result.unknownFields);
  }
  if (unknown.length && mode === 'Strict') {
    const list = [...new Set(unknown)]
      .sort()
      .map((f) => `unknown field "${f}"`)
      .join(', ');
    throw badRequest(
      `${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: strict decoding error: ${list}`,
    );
  }
  if (mode === 'Warn')
    for (const f of [...new Set(unknown)].sort())
      req.warnings.push(`299 - ${JSON.stringify(`unknown field ${JSON.stringify(f)}`)}`);
  return { obj: { ...body, metadata: meta }, causes };
}

/** Re-runs defaulting and validation on an object that was already decoded (after server-side edits). */
export function revalidate(req: ApiRequest, obj: any): SchemaCause[] {
  const schema = req.type.custom?.schema ?? req.type.builtin?.schema;
  if (!schema) return [];
  const { metadata, ...rest } = obj;
  const result = schema.validate(rest, { fieldValidation: 'Ignore' });
  Object.assign(obj, result.value ?? rest);
  return result.causes;
}

export function validateOrThrow(req: ApiRequest, obj: any, schemaCauses: SchemaCause[]): void {
  const type = req.type;
  const metaCauses = type.builtin?.validate ? type.builtin.validate(obj) : validateMeta(obj.metadata, 'subdomain');
  const causes = [...metaCauses, ...schemaCauses];
  if (!causes.length) return;
  // events.k8s.io Events are validated as the internal core type: no group in the error (golden 95 notes).
  const qual = type.builtin?.toStorage ? { ...q(type), group: '' } : q(type);
  throw invalid(qual, obj.metadata?.name ?? '', causes);
}

/** NamespaceLifecycle admission for creates: 404 for a missing namespace, 403 while it terminates (goldens 76, 78). */
export function checkNamespaceForCreate(ctx: ServerContext, req: ApiRequest, name: string): void {
  if (!req.type.namespaced || !req.namespace) return;
  const ns = ctx.store.get('/namespaces', req.namespace);
  if (!ns) {
    throw new ApiError(
      404,
      statusBody(404, 'NotFound', `namespaces "${req.namespace}" not found`, {
        name: req.namespace,
        kind: 'namespaces',
      }),
    );
  }
  if (ns.obj.metadata.deletionTimestamp || ns.obj.status?.phase === 'Terminating') {
    const err = forbidden(
      q(req.type),
      name,
      `unable to create new content in namespace ${req.namespace} because it is being terminated`,
    );
    (err.body as any).details.causes = [
      {
        reason: 'NamespaceTerminating',
        message: `namespace ${req.namespace} is being terminated`,
        field: 'metadata.namespace',
      },
    ];
    throw err;
  }
}

/** No finalizer may be added once deletion started (golden 66: the cause is reported twice, as upstream does). */
export function checkFinalizers(type: ResourceType, oldObj: any, newObj: any): void {
  if (!oldObj.metadata.deletionTimestamp) return;
  const before = new Set<string>(oldObj.metadata.finalizers ?? []);
  const added = (newObj.metadata.finalizers ?? []).filter((f: string) => !before.has(f));
  if (!added.length) return;
  const cause = {
    reason: 'FieldValueForbidden',
    field: 'metadata.finalizers',
    message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(added)}`,
  };
  throw invalid(q(type), newObj.metadata.name, [cause, { ...cause }]);
}

/** Did anything outside metadata (and outside status, when status is a subresource) change? */
export function specChanged(type: ResourceType, oldObj: any, newObj: any): boolean {
  const strip = (o: any) => {
    const { metadata, kind, apiVersion, ...rest } = o;
    if (type.statusSubresource) delete rest.status;
    return JSON.stringify(sortDeep(rest));
  };
  return strip(oldObj) !== strip(newObj);
}

export const tracksGeneration = (type: ResourceType) => !type.builtin || !!type.builtin.hasGeneration;

/** The object in wire order: struct order for built-ins, sorted keys for custom resources. */
export function wireOrder(type: ResourceType, obj: any): any {
  if (type.builtin) return orderByShape(obj, type.builtin.shape);
  return sortDeep(obj);
}

const apiVersionOf = (type: ResourceType, version = type.version) =>
  type.group ? `${type.group}/${version}` : version;

/**
 * Storage form of a view's object: events.k8s.io/v1 Events are stored as core/v1 Events; a custom resource is
 * stored at its CRD's storage version (conversion None: only apiVersion changes, the key keeps its place).
 */
export function toStorage(type: ResourceType, obj: any): any {
  if (type.builtin?.toStorage) return type.builtin.toStorage(obj);
  const stored = type.custom && apiVersionOf(type, type.custom.storageVersion);
  return stored && obj.apiVersion !== stored ? { ...obj, apiVersion: stored } : obj;
}

/** The object as this view (group/version) shows it; the stored object itself when nothing differs. */
export function fromStorage(type: ResourceType, obj: any): any {
  if (type.builtin?.fromStorage) return type.builtin.fromStorage(obj);
  return converts(type, obj) ? { ...obj, apiVersion: apiVersionOf(type) } : obj;
}

/** Whether the view differs from the stored bytes (another version of a CRD, an events.k8s.io Event). */
export const converts = (type: ResourceType, obj: any): boolean =>
  !!type.builtin?.fromStorage || (!!type.custom && obj?.apiVersion !== apiVersionOf(type));

/** ObjectMeta fields with the wrong JSON type fail decoding with 400, as the Go decoder does. */
function checkMetaTypes(type: ResourceType, meta: any): void {
  const fail = (field: string, goType: string, got: unknown) => {
    const jsonType = goJsonType(got);
    throw badRequest(
      `${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}: json: ` +
        `cannot unmarshal ${jsonType} into Go struct field ObjectMeta.metadata.${field} of type ` +
        `${goType}`,
    );
  };
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) fail('', 'v1.ObjectMeta', meta);
  for (const f of ['name', 'generateName', 'namespace', 'resourceVersion', 'uid']) {
    if (meta[f] !== undefined && meta[f] !== null && typeof meta[f] !== 'string') fail(f, 'string', meta[f]);
  }
  for (const f of ['labels', 'annotations']) {
    const m = meta[f];
    if (m === undefined || m === null) continue;
    if (typeof m !== 'object' || Array.isArray(m)) fail(f, 'map[string]string', m);
    for (const v of Object.values(m)) if (typeof v !== 'string') fail(f, 'string', v);
  }
  if (
    meta.finalizers != null &&
    (!Array.isArray(meta.finalizers) || meta.finalizers.some((x: unknown) => typeof x !== 'string'))
  )
    fail('finalizers', '[]string', meta.finalizers);
  if (
    meta.ownerReferences != null &&
    (!Array.isArray(meta.ownerReferences) ||
      meta.ownerReferences.some((x: any) => typeof x !== 'object' || x === null || typeof x.uid !== 'string'))
  ) {
    fail('ownerReferences', '[]v1.OwnerReference', meta.ownerReferences);
  }
}
