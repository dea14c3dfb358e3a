import type { ApiRequest, ApiResponse, ServerContext } from '../context.js';
import { managerOf, q, runAdmission } from '../context.js';
import { alreadyExists, badRequest } from '../status.js';
import { formatTime, generateName, newUid } from '../meta.js';
import { objectKey } from '../store.js';
import { checkTypedFields } from '../typed-fields.js';
import { updateManagedFields, applyManagedFields } from '../managed-fields.js';
import {
  checkNamespaceForCreate,
  decode,
  fromStorage,
  parseJsonBody,
  toStorage,
  tracksGeneration,
  validateOrThrow,
  wireOrder,
} from '../object-pipeline.js';

/** POST (and server-side apply of a missing object): validation, NamespaceLifecycle, admission, then store. */
export async function createObject(
  ctx: ServerContext,
  req: ApiRequest,
  input?: any,
  applied?: boolean,
): Promise<ApiResponse> {
  const type = req.type;
  const raw = input ?? parseJsonBody(req.body);
  if (!applied) checkTypedFields(type, raw, false);
  const bodyNs = raw?.metadata?.namespace;
  if (type.namespaced && bodyNs && req.namespace && bodyNs !== req.namespace) {
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const { obj, causes } = decode(ctx, req, raw);
  const meta = obj.metadata;
  if (type.namespaced) meta.namespace = req.namespace;
  else delete meta.namespace; // silently dropped for cluster-scoped kinds (golden 82)
  if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName);
  checkNamespaceForCreate(ctx, req, meta.name ?? '');

  for (const k of [
    'uid',
    'resourceVersion',
    'generation',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'managedFields',
    'selfLink',
  ])
    delete meta[k];
  if (type.statusSubresource && !type.builtin) delete obj.status;
  meta.uid = newUid();
  meta.resourceVersion = '0'; // placeholder that fixes its position in wire order; the store sets the value
  meta.creationTimestamp = formatTime(ctx.clock.now());
  if (tracksGeneration(type)) meta.generation = 1;
  type.builtin?.defaults?.(obj, 'create');
  if (!obj.apiVersion) obj.apiVersion = type.group ? `${type.group}/${type.version}` : type.version;
  if (!obj.kind) obj.kind = type.kind;
  validateOrThrow(req, obj, causes);
  await runAdmission(ctx, req, 'CREATE', meta.name, obj, undefined);

  const who = { manager: managerOf(req), apiVersion: obj.apiVersion, nowMs: ctx.clock.now() };
  const managed = applied ? applyManagedFields(type, raw, who) : updateManagedFields(type, undefined, obj, who);
  if (managed) meta.managedFields = managed;
  const stored = wireOrder(type, obj);
  const key = objectKey(meta.namespace, meta.name);
  const storageForm = toStorage(type, stored);
  if (ctx.store.get(type.storageKey, key)) throw alreadyExists(q(type), meta.name);
  if (req.dryRun) {
    delete stored.metadata.resourceVersion;
    return { code: 201, body: stored };
  }
  const event = ctx.store.put(type.storageKey, key, storageForm);
  if (type.group === 'apiextensions.k8s.io') ctx.crdChanged(event.obj, false);
  return { code: 201, body: fromStorage(type, event.obj) };
}
