import type { ApiRequest, ApiResponse, ServerContext } from '../context.js';
import { managerOf, q, runAdmission } from '../context.js';
import { ApiError, badRequest, conflict, invalid, notFound, statusBody, storageConflict } from '../status.js';
import { etcdKey, objectKey } from '../store.js';
import { checkTypedFields } from '../typed-fields.js';
import { updateManagedFields } from '../managed-fields.js';
import { applyPatch, parsePatchBody, patchTypeOf } from '../patch.js';
import {
  checkFinalizers,
  decode,
  fromStorage,
  parseJsonBody,
  revalidate,
  specChanged,
  toStorage,
  tracksGeneration,
  validateOrThrow,
  wireOrder,
} from '../object-pipeline.js';
import { createObject } from './create.js';
import { applyToExisting } from '../server-side-apply.js';
import { isFinalized } from '../controllers/system-writes.js';
import { scaleFromObject, scaleIntoObject } from './scale.js';
import { crdPrepareForUpdate } from '../crd-strategy.js';

/** PUT and PATCH, on the main resource, /status or /scale. */
export async function updateObject(
  ctx: ServerContext,
  req: ApiRequest,
  verb: 'update' | 'patch',
): Promise<ApiResponse> {
  const type = req.type;
  const name = req.name!;
  const key = objectKey(type.namespaced ? req.namespace : undefined, name);
  const patchType = verb === 'patch' ? patchTypeOf(req.contentType, !!type.builtin) : undefined;
  if (patchType === 'apply' && !req.query.get('fieldManager')) {
    throw new ApiError(
      422,
      statusBody(
        422,
        'Invalid',
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
        {
          group: 'meta.k8s.io',
          kind: 'PatchOptions',
          causes: [
            {
              reason: 'FieldValueRequired',
              message: 'Required value: is required for apply patch',
              field: 'fieldManager',
            },
          ],
        },
      ),
    );
  }
  const patchBody = patchType ? parsePatchBody(patchType, req.body) : undefined;
  const record = ctx.store.get(type.storageKey, key);
  if (!record) {
    if (patchType === 'apply' && !req.subresource) return createObject(ctx, req, patchBody, true);
    throw notFound(q(type), name);
  }
  const current = fromStorage(type, record.obj);
  const currentView = req.subresource === 'scale' ? scaleFromObject(type, current) : current;

  let proposed: any;
  let ssa: { object: any; managedFields: any[] } | undefined;
  if (verb === 'update') {
    proposed = parseJsonBody(req.body);
    checkTypedFields(type, proposed, false);
    if (proposed.metadata?.name !== undefined && proposed.metadata.name !== name) {
      throw badRequest(
        `the name of the object (${proposed.metadata.name}) does not match the name on the URL (${name})`,
      );
    }
    if (type.namespaced && proposed.metadata?.namespace && proposed.metadata.namespace !== req.namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    // A PUT's own uid is a precondition on the stored object (rest.DefaultUpdatedObjectInfo.Preconditions), checked
    // by the storage before anything else about the update.
    const uid = proposed.metadata?.uid;
    if (typeof uid === 'string' && uid && uid !== current.metadata.uid) {
      throw storageConflict(
        q(type),
        name,
        etcdKey(type, req.namespace, name),
        `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${current.metadata.uid}`,
      );
    }
    if (!proposed.metadata?.resourceVersion && !type.builtin) {
      // Custom resources refuse unconditional updates (golden 32).
      throw invalid(
        q(type),
        name,
        [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: 0x0: must be specified for an update',
            field: 'metadata.resourceVersion',
          },
        ],
        true,
      );
    }
  } else if (patchType === 'apply') {
    if (typeof patchBody !== 'object' || patchBody === null || Array.isArray(patchBody))
      throw badRequest('apply patch must be an object');
    ssa = applyToExisting(
      type,
      currentView,
      patchBody,
      { manager: managerOf(req), subresource: req.subresource, apiVersion: current.apiVersion, nowMs: ctx.clock.now() },
      req.query.get('force') === 'true',
    );
    proposed = ssa.object;
  } else {
    proposed = applyPatch(patchType!, currentView, patchBody);
    if (!req.subresource) checkTypedFields(type, proposed, true);
  }
  const precondition = proposed?.metadata?.resourceVersion;
  if (precondition && precondition !== currentView.metadata.resourceVersion) throw conflict(q(type), name);

  if (req.subresource === 'scale') proposed = scaleIntoObject(type, current, proposed);
  const { obj, causes: decodeCauses } = decode(ctx, req, proposed);
  // A patch that changes metadata.uid fails update validation (ValidateObjectMetaUpdate), once in the common
  // checks and once in the kind's strategy, as golden 66 shows for finalizers; an empty uid keeps the stored one.
  const uidChange =
    !req.subresource &&
    typeof obj.metadata?.uid === 'string' &&
    obj.metadata.uid &&
    obj.metadata.uid !== current.metadata.uid
      ? {
          reason: 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(obj.metadata.uid)}: field is immutable`,
          field: 'metadata.uid',
        }
      : undefined;
  let next = obj;
  // Server-owned metadata always comes from the stored object.
  const keep = [
    'name',
    'namespace',
    'uid',
    'creationTimestamp',
    'generation',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'managedFields',
    'resourceVersion',
  ];
  const namespaceStatus = req.subresource === 'status' && type.resource === 'namespaces' && !type.group;
  if (req.subresource === 'finalize') {
    // Namespace spec.finalizers change only through /finalize (the namespace controller's door).
    next = structuredClone(current);
    next.spec = { ...current.spec, finalizers: obj.spec?.finalizers ?? [] };
    if (!next.spec.finalizers.length) delete next.spec.finalizers;
  } else if (req.subresource === 'status' && !namespaceStatus) {
    // Only status changes through /status (golden 37; customresource statusStrategy.PrepareForUpdate starts from
    // the old object); through the main resource status is ignored (golden 38).
    next = structuredClone(current);
    if (obj.status === undefined) delete next.status;
    else next.status = obj.status;
  } else {
    for (const k of keep) {
      if (current.metadata[k] === undefined) delete next.metadata[k];
      else next.metadata[k] = current.metadata[k];
    }
    if (type.statusSubresource && !namespaceStatus) {
      if (current.status === undefined) delete next.status;
      else next.status = structuredClone(current.status);
    }
    next.apiVersion = current.apiVersion;
    next.kind = current.kind;
    // A Namespace's spec changes only through /finalize; its status strategy keeps only spec, so labels and
    // annotations sent to /status are written (registry/core/namespace/strategy.go).
    if (type.resource === 'namespaces' && !type.group) next.spec = structuredClone(current.spec);
  }
  type.builtin?.defaults?.(next, 'update');
  if (type.group === 'apiextensions.k8s.io' && !req.subresource) crdPrepareForUpdate(next);
  const causes = [
    ...(uidChange ? [uidChange, { ...uidChange }] : []),
    ...(req.subresource === 'status' ? revalidate(req, next) : decodeCauses),
  ];
  checkFinalizers(type, current, next);
  if (tracksGeneration(type) && specChanged(type, current, next))
    next.metadata.generation = (current.metadata.generation ?? 0) + 1;
  validateOrThrow(req, next, causes);
  await runAdmission(ctx, req, 'UPDATE', name, next, current);
  if (ctx.faults.takeConflict(type.resource, name)) throw conflict(q(type), name);

  const managed = ssa
    ? ssa.managedFields
    : updateManagedFields(type, current, next, {
        manager: managerOf(req),
        subresource: req.subresource,
        apiVersion: current.apiVersion,
        nowMs: ctx.clock.now(),
      });
  if (managed?.length) next.metadata.managedFields = managed;
  else delete next.metadata.managedFields;
  const ordered = wireOrder(type, next);
  const render = (o: any) => (req.subresource === 'scale' ? scaleFromObject(type, o) : o);
  // Nothing but managedFields timestamps changed: no write, no new resourceVersion (goldens 24, 37, 38). But etcd3's
  // GuaranteedUpdate compares the encoded bytes: an object stored at an older version of its CRD is written again,
  // at the storage version, by an update that changes nothing else (what a storage migration's no-op PUT relies on).
  const timeless = (o: any) =>
    JSON.stringify({
      ...o,
      metadata: { ...o.metadata, managedFields: o.metadata.managedFields?.map(({ time, ...e }: any) => e) },
    });
  const restored = toStorage(type, ordered).apiVersion !== record.obj.apiVersion;
  if (!restored && timeless(ordered) === timeless(wireOrder(type, current)))
    return { code: 200, body: render(current) };
  if (req.dryRun) return { code: 200, body: render(ordered) };

  if (isFinalized(type.storageKey, ordered)) {
    // Removing the last finalizer deletes the object: the answer is the updated object with its old
    // resourceVersion, and watchers get DELETED carrying the last stored state (goldens 68, 69).
    ctx.store.remove(type.storageKey, key);
    if (type.group === 'apiextensions.k8s.io') ctx.crdChanged(record.obj, true);
    return { code: 200, body: render(ordered) };
  }
  const event = ctx.store.put(type.storageKey, key, toStorage(type, ordered));
  if (type.group === 'apiextensions.k8s.io' && req.subresource !== 'status') ctx.crdChanged(event.obj, false);
  return { code: 200, body: render(fromStorage(type, event.obj)) };
}
