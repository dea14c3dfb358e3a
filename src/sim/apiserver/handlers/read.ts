import type { ApiRequest, ApiResponse, ServerContext } from '../context.js';
import { q } from '../context.js';
import { ApiError, badRequest, gone, invalid, notFound, statusBody, type StatusCause } from '../status.js';
import { objectKey, type StoredRecord } from '../store.js';
import { parseFieldSelector, parseLabelSelector, type FieldGetter } from '../selectors.js';
import { decodeContinue, encodeContinue, lowerBound } from '../paging.js';
import { converts, fromStorage } from '../object-pipeline.js';
import type { ResourceType } from '../types.js';
import { scaleFromObject } from './scale.js';
import { deleteOne, deleteOptionsOf, withBodyDryRun } from './delete.js';

export async function getObject(ctx: ServerContext, req: ApiRequest): Promise<ApiResponse> {
  const type = req.type;
  const record = ctx.store.get(type.storageKey, objectKey(type.namespaced ? req.namespace : undefined, req.name!));
  if (!record) throw notFound(q(type), req.name!);
  if (req.subresource === 'scale') return { code: 200, body: scaleFromObject(type, fromStorage(type, record.obj)) };
  if (!converts(type, record.obj)) return { code: 200, body: record.json };
  return { code: 200, body: fromStorage(type, record.obj) };
}

/** Field selectors the built-in kinds support beyond metadata.name/namespace. */
export function extraFieldGetters(type: ResourceType): Record<string, FieldGetter> {
  if (type.resource === 'secrets') return { type: (o) => o.type };
  if (type.resource === 'namespaces') return { 'status.phase': (o) => o.status?.phase };
  // Event field labels (pkg/registry/core/event ToSelectableFields): "source" falls back to the reporting
  // controller; events.k8s.io/v1 names the same fields regarding.* and reportingController (its field label
  // conversion in pkg/apis/events/v1).
  const refFields = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'];
  if (type.resource === 'events' && !type.group) {
    const out: Record<string, FieldGetter> = {};
    for (const f of refFields) out[`involvedObject.${f}`] = (o) => o.involvedObject?.[f];
    return {
      ...out,
      reason: (o) => o.reason,
      type: (o) => o.type,
      source: (o) => o.source?.component || o.reportingComponent,
      reportingComponent: (o) => o.reportingComponent,
    };
  }
  if (type.resource === 'events' && type.group === 'events.k8s.io') {
    const out: Record<string, FieldGetter> = {};
    for (const f of refFields) out[`regarding.${f}`] = (o) => o.regarding?.[f];
    return {
      ...out,
      reason: (o) => o.reason,
      type: (o) => o.type,
      source: (o) => o.deprecatedSource?.component || o.reportingController,
      reportingController: (o) => o.reportingController,
    };
  }
  return {};
}

export function filterOf(req: ApiRequest) {
  const labels = parseLabelSelector(req.query.get('labelSelector') ?? undefined);
  const fields = parseFieldSelector(req.query.get('fieldSelector') ?? undefined, extraFieldGetters(req.type));
  const filtered = !!labels || !!fields;
  return { filtered, match: (obj: any) => (!labels || labels(obj.metadata?.labels)) && (!fields || fields(obj)) };
}

/** The table as it was at `rv`: current records with every later change undone from the event history. */
function snapshot(ctx: ServerContext, storageKey: string, rv: number) {
  const store = ctx.store;
  if (rv >= store.currentRv())
    return { keys: store.sortedKeys(storageKey), get: (k: string) => store.get(storageKey, k) };
  const overrides = new Map<string, StoredRecord | null>();
  const later = store.eventsSince(rv);
  for (let i = later.length - 1; i >= 0; i--) {
    const e = later[i]!;
    if (e.storageKey !== storageKey) continue;
    overrides.set(e.key, e.type === 'ADDED' ? null : { obj: e.prev, json: JSON.stringify(e.prev) });
  }
  const keys = new Set(store.sortedKeys(storageKey));
  for (const [k, v] of overrides)
    if (v) keys.add(k);
    else keys.delete(k);
  return {
    keys: [...keys].sort(),
    get: (k: string) => (overrides.has(k) ? (overrides.get(k) ?? undefined) : store.get(storageKey, k)),
  };
}

/** Waits (up to 3 s, like the watch cache) for a resourceVersion the server has not reached (golden 62). */
async function waitForRv(ctx: ServerContext, rv: number): Promise<void> {
  if (rv <= ctx.store.currentRv()) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, 3000);
    const unsubscribe = ctx.store.subscribe(() => {
      if (ctx.store.currentRv() >= rv) done();
    });
    function done() {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });
  if (rv > ctx.store.currentRv()) {
    throw new ApiError(
      504,
      statusBody(504, 'Timeout', `Timeout: Too large resource version: ${rv}, current: ${ctx.store.currentRv()}`, {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds: 1,
      }),
      { 'retry-after': '1' },
    );
  }
}

/** A list item's bytes, cached on the record: LISTs of thousands of objects concatenate buffers, nothing else. */
function itemBytes(type: ResourceType, record: StoredRecord): Buffer {
  if (type.builtin?.fromStorage) {
    const { kind, apiVersion, ...bare } = fromStorage(type, record.obj);
    return Buffer.from(JSON.stringify(bare));
  }
  // Another version of a custom resource than the one it is stored at: converted for each LIST, not cached.
  if (converts(type, record.obj)) return Buffer.from(JSON.stringify(fromStorage(type, record.obj)));
  if (!record.item) {
    // Built-in list items carry no kind/apiVersion (golden 96); both come first in wire order.
    record.item = Buffer.from(type.builtin ? `{${record.json.slice(record.json.indexOf('"metadata":'))}` : record.json);
  }
  return record.item;
}

const COMMA = Buffer.from(',');

export function renderList(type: ResourceType, items: Buffer[], rv: number, cont?: string, remaining?: number): Buffer {
  const apiVersion = type.group ? `${type.group}/${type.version}` : type.version;
  let head: string, tail: string;
  if (type.builtin) {
    const meta: any = { resourceVersion: String(rv) };
    if (cont) meta.continue = cont;
    if (remaining !== undefined) meta.remainingItemCount = remaining;
    head = `{"kind":"${type.listKind}","apiVersion":"${apiVersion}","metadata":${JSON.stringify(meta)},"items":[`;
    tail = ']}';
  } else {
    const meta: any = { continue: cont ?? '' };
    if (remaining !== undefined) meta.remainingItemCount = remaining;
    meta.resourceVersion = String(rv);
    head = `{"apiVersion":"${apiVersion}","items":[`;
    tail = `],"kind":"${type.listKind}","metadata":${JSON.stringify(meta)}}`;
  }
  const parts: Buffer[] = [Buffer.from(head)];
  items.forEach((item, i) => {
    if (i) parts.push(COMMA);
    parts.push(item);
  });
  parts.push(Buffer.from(tail));
  return Buffer.concat(parts);
}

/** ListOptions validation of resourceVersionMatch (apimachinery internalversion/validation ValidateListOptions). */
export function validateListOptions(req: ApiRequest, watch = false): void {
  const match = req.query.get('resourceVersionMatch') ?? '';
  if (!match) return;
  const rv = req.query.get('resourceVersion') ?? '';
  const causes: StatusCause[] = [];
  const forbid = (message: string) =>
    causes.push({ reason: 'FieldValueForbidden', message: `Forbidden: ${message}`, field: 'resourceVersionMatch' });
  if (watch) forbid('resourceVersionMatch is forbidden for watch');
  if (!rv) forbid('resourceVersionMatch is forbidden unless resourceVersion is provided');
  if (req.query.get('continue')) forbid('resourceVersionMatch is forbidden when continue is provided');
  if (match !== 'Exact' && match !== 'NotOlderThan') {
    causes.push({
      reason: 'FieldValueNotSupported',
      field: 'resourceVersionMatch',
      message: `Unsupported value: ${JSON.stringify(match)}: supported values: "Exact", "NotOlderThan", ""`,
    });
  }
  if (match === 'Exact' && rv === '0') forbid('resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  if (causes.length) throw invalid({ group: 'meta.k8s.io', resource: 'listoptions', kind: 'ListOptions' }, '', causes);
}

export async function listObjects(ctx: ServerContext, req: ApiRequest): Promise<ApiResponse> {
  const type = req.type;
  validateListOptions(req);
  const { filtered, match } = filterOf(req);
  const rvParam = req.query.get('resourceVersion') ?? '';
  const contParam = req.query.get('continue');
  // resourceVersion=0 is served from the watch cache, which ignores limit: one page with everything (cacher.go
  // shouldDelegateList delegates to etcd only for a continue token, or a limit with a resourceVersion other than "0").
  const limit = rvParam === '0' && !contParam ? 0 : Number(req.query.get('limit') ?? 0) || 0;
  const exact = req.query.get('resourceVersionMatch') === 'Exact';
  if (contParam && rvParam && rvParam !== '0')
    throw badRequest('specifying resource version is not allowed when using continue');
  let listRv = ctx.store.currentRv();
  let start = '';
  if (contParam) {
    const token = decodeContinue(contParam);
    start = token.start;
    if (token.rv >= 0 && token.rv < ctx.store.compactedRv()) {
      throw gone(
        'The provided continue parameter is too old to display a consistent list result. You can start a new list ' +
          'without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. ' +
          'Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted ' +
          'between the time the first chunk was returned and now may show up in the list.',
        { continue: encodeContinue(-1, token.start) },
      );
    }
    if (token.rv >= 0) listRv = token.rv;
  } else if (rvParam && rvParam !== '0') {
    const rv = Number(rvParam);
    if (!Number.isInteger(rv) || rv < 0)
      throw new ApiError(400, statusBody(400, 'BadRequest', `invalid resource version: ${rvParam}`));
    await waitForRv(ctx, rv);
    if (exact) {
      if (rv < ctx.store.compactedRv()) throw gone('The resourceVersion for the provided list is too old.');
      listRv = rv;
    }
  }
  const snap = snapshot(ctx, type.storageKey, listRv);
  const prefix = type.namespaced && req.namespace ? `${req.namespace}/` : '';
  const end = prefix ? lowerBound(snap.keys, `${req.namespace}0`) : snap.keys.length; // '0' sorts right after '/'
  let i = lowerBound(snap.keys, prefix + start);
  const items: Buffer[] = [];
  let lastKey = '';
  for (; i < end; i++) {
    const key = snap.keys[i]!;
    const record = snap.get(key);
    if (!record || (filtered && !match(fromStorage(type, record.obj)))) continue;
    if (limit && items.length >= limit) break;
    items.push(itemBytes(type, record));
    lastKey = key;
  }
  let cont: string | undefined;
  let remaining: number | undefined;
  if (limit && i < end) {
    // Unfiltered lists report how many items remain; filtered ones only need to know whether any match.
    let more = filtered ? 0 : end - i;
    for (let j = i; filtered && j < end; j++) {
      const r = snap.get(snap.keys[j]!);
      if (r && match(fromStorage(type, r.obj))) {
        more = 1;
        break;
      }
    }
    if (more) {
      cont = encodeContinue(listRv, `${lastKey.slice(prefix.length)}\u0000`);
      if (!filtered) remaining = more;
    }
  }
  return { code: 200, body: renderList(type, items, listRv, cont, remaining) };
}

export async function deleteCollection(ctx: ServerContext, req: ApiRequest): Promise<ApiResponse> {
  const type = req.type;
  const { match } = filterOf(req);
  const opts = deleteOptionsOf(req);
  const dry = withBodyDryRun(req, opts);
  const prefix = type.namespaced && req.namespace ? `${req.namespace}/` : '';
  const keys = ctx.store.sortedKeys(type.storageKey).filter((k) => k.startsWith(prefix));
  const items: Buffer[] = [];
  for (const key of keys) {
    const record = ctx.store.get(type.storageKey, key);
    if (!record || !match(fromStorage(type, record.obj))) continue;
    items.push(itemBytes(type, record));
    try {
      await deleteOne(ctx, dry, type, key, opts);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
  }
  return { code: 200, body: renderList(type, items, ctx.store.currentRv()) };
}
