import type { ApiRequest, ApiResponse, ServerContext } from '../context.js';
import { q, runAdmission } from '../context.js';
import { badRequest, forbidden, notFound, preconditionConflict, successStatus, type StatusCause } from '../status.js';
import { dryRunCauses, optionsInvalid } from '../request-options.js';
import { formatTime } from '../meta.js';
import { objectKey } from '../store.js';
import { fromStorage, tracksGeneration, wireOrder, toStorage } from '../object-pipeline.js';
import type { ResourceType } from '../types.js';

export interface DeleteOptions {
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  preconditions?: { uid?: string; resourceVersion?: string };
  /** dryRun from the DeleteOptions (kubectl delete --dry-run=server sends it in the body, not in the query). */
  dryRun?: boolean;
}

/** NamespaceLifecycle admission: these namespaces may never be deleted. */
const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

/**
 * The DeleteOptions of a DELETE: from the body when there is one, otherwise from the query (never both, as
 * handlers/delete.go decodes them), validated as ValidateDeleteOptions does (422 on DeleteOptions.meta.k8s.io).
 */
export function deleteOptionsOf(req: ApiRequest): DeleteOptions {
  let body: any;
  if (req.body.trim()) {
    try {
      body = JSON.parse(req.body);
    } catch {
      throw badRequest('invalid DeleteOptions body');
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('invalid DeleteOptions body');
  } else {
    const orphan = req.query.get('orphanDependents');
    body = {
      propagationPolicy: req.query.get('propagationPolicy') ?? undefined,
      dryRun: req.query.getAll('dryRun'),
      orphanDependents: orphan === null ? undefined : orphan === 'true',
    };
  }
  const causes: StatusCause[] = [];
  const policy = body.propagationPolicy ?? undefined;
  if (policy !== undefined && body.orphanDependents !== undefined && body.orphanDependents !== null) {
    causes.push({
      reason: 'FieldValueInvalid',
      field: 'propagationPolicy',
      message: `Invalid value: ${JSON.stringify(String(policy))}: orphanDependents and deletionPropagation cannot be both set`,
    });
  }
  if (policy !== undefined && !['Background', 'Foreground', 'Orphan'].includes(policy)) {
    causes.push({
      reason: 'FieldValueNotSupported',
      field: 'propagationPolicy',
      message: `Unsupported value: ${JSON.stringify(String(policy))}: supported values: "Foreground", "Background", "Orphan", "nil"`,
    });
  }
  const dryRun: unknown[] = Array.isArray(body.dryRun) ? body.dryRun : body.dryRun == null ? [] : [body.dryRun];
  causes.push(...dryRunCauses(dryRun));
  if (causes.length) throw optionsInvalid('DeleteOptions', causes);
  return {
    propagationPolicy: policy ?? (body.orphanDependents === true ? 'Orphan' : undefined),
    preconditions: body.preconditions,
    dryRun: dryRun.length > 0,
  };
}

/** The request as the registry sees it: a dry run when its DeleteOptions say so. */
export const withBodyDryRun = (req: ApiRequest, opts: DeleteOptions): ApiRequest =>
  opts.dryRun === req.dryRun ? req : { ...req, dryRun: !!opts.dryRun };

/**
 * Deletes one stored object the way the registry does: finalizers (and Foreground/Orphan, which add their own)
 * defer deletion by setting deletionTimestamp (golden 64, 71, 72); otherwise it goes at once (golden 70).
 * Returns the HTTP answer; `dryRun` computes it without writing.
 */
export async function deleteOne(
  ctx: ServerContext,
  req: ApiRequest,
  type: ResourceType,
  key: string,
  opts: DeleteOptions,
): Promise<ApiResponse> {
  const record = ctx.store.get(type.storageKey, key);
  const name = key.split('/').pop()!;
  if (!record) throw notFound(q(type), name);
  const current = fromStorage(type, record.obj);
  const pre = opts.preconditions;
  if (pre?.uid && pre.uid !== current.metadata.uid) {
    throw preconditionConflict(
      q(type),
      name,
      `the UID in the precondition (${pre.uid}) does not match the UID in record ` +
        `(${current.metadata.uid}). The object might have been deleted and then recreated`,
    );
  }
  if (pre?.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
    throw preconditionConflict(
      q(type),
      name,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ` +
        `ResourceVersion in record (${current.metadata.resourceVersion}). The object might have ` +
        `been modified`,
    );
  }
  await runAdmission(ctx, req, 'DELETE', name, undefined, current);

  if (type.resource === 'namespaces' && !type.group) {
    if (IMMORTAL_NAMESPACES.has(name)) throw forbidden(q(type), name, 'this namespace may not be deleted');
    // The namespace controller empties it and then removes the "kubernetes" finalizer (golden 75).
    if (current.metadata.deletionTimestamp) return { code: 200, body: current };
    const next = structuredClone(current);
    next.metadata.deletionTimestamp = formatTime(ctx.clock.now());
    next.status = { ...next.status, phase: 'Terminating' };
    if (req.dryRun) return { code: 200, body: next };
    return { code: 200, body: ctx.store.put(type.storageKey, key, wireOrder(type, next)).obj };
  }

  const finalizers: string[] = [...(current.metadata.finalizers ?? [])];
  const policy = opts.propagationPolicy;
  if (!current.metadata.deletionTimestamp) {
    if (policy === 'Foreground' && !finalizers.includes('foregroundDeletion')) finalizers.push('foregroundDeletion');
    if (policy === 'Orphan' && !finalizers.includes('orphan')) finalizers.push('orphan');
  }
  if (finalizers.length) {
    if (current.metadata.deletionTimestamp) return { code: 200, body: current }; // already terminating (golden 65 notes)
    const next = structuredClone(current);
    next.metadata.finalizers = finalizers;
    next.metadata.deletionTimestamp = formatTime(ctx.clock.now());
    next.metadata.deletionGracePeriodSeconds = 0;
    if (tracksGeneration(type)) next.metadata.generation = (current.metadata.generation ?? 0) + 1;
    const ordered = wireOrder(type, next);
    if (req.dryRun) return { code: 200, body: ordered };
    return { code: 200, body: fromStorage(type, ctx.store.put(type.storageKey, key, toStorage(type, ordered)).obj) };
  }
  const details = { name, group: type.group, kind: type.resource, uid: current.metadata.uid };
  if (!req.dryRun) {
    ctx.store.remove(type.storageKey, key);
    if (type.group === 'apiextensions.k8s.io') ctx.crdChanged(record.obj, true);
  }
  return { code: 200, body: successStatus(details) };
}

export async function deleteObject(ctx: ServerContext, req: ApiRequest): Promise<ApiResponse> {
  const key = objectKey(req.type.namespaced ? req.namespace : undefined, req.name!);
  const opts = deleteOptionsOf(req);
  return deleteOne(ctx, withBodyDryRun(req, opts), req.type, key, opts);
}
