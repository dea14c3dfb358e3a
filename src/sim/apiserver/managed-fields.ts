// managedFields with the real ownership rule for Update operations (structured-merge-diff): the manager of a
// write owns every field it added or changed, those fields leave every other manager, removed fields leave
// everyone, and an entry whose set becomes empty is dropped. Field sets are encoded as FieldsV1 ("f:", "k:", "v:"
// and "." for a map that is owned as a whole), following the schema: atomic maps and lists are single leaves.
import type { ResourceType } from './types.js';
import { formatTime } from './meta.js';
import { orderByShape, managedFieldsShape } from './serialize.js';

const SEP = '\u0001';
type Paths = Set<string>;

interface SchemaNode { atomic: boolean; struct: boolean; listType?: string; listKeys?: string[]; child(key: string): SchemaNode; item(): SchemaNode }

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const deepEqual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function openApiNode(s: any): SchemaNode {
  return {
    atomic: s?.['x-kubernetes-map-type'] === 'atomic',
    struct: false,
    listType: s?.['x-kubernetes-list-type'],
    listKeys: s?.['x-kubernetes-list-map-keys'],
    child: (key) => openApiNode(s?.properties?.[key] ?? (isObj(s?.additionalProperties) ? s.additionalProperties : undefined)),
    item: () => openApiNode(s?.items),
  };
}

/** ObjectMeta as the real typed schema sees it: finalizers is a set, ownerReferences a map keyed by uid. */
function metadataNode(): SchemaNode {
  const plain = openApiNode(undefined);
  return {
    ...plain,
    child: (key) => key === 'finalizers' ? { ...plain, listType: 'set' }
      : key === 'ownerReferences' ? { ...plain, listType: 'map', listKeys: ['uid'] } : plain,
  };
}

function builtinNode(type: ResourceType, path: string[] = []): SchemaNode {
  const b = type.builtin!;
  const match = (list?: string[][]) => (list ?? []).some((p) => p.length === path.length && p.every((x, i) => x === path[i]));
  return {
    atomic: match(b.atomicPaths), struct: match(b.structPaths),
    listType: path.join('.') === 'status.conditions' ? 'map' : undefined,
    listKeys: path.join('.') === 'status.conditions' ? ['type'] : undefined,
    child: (key) => builtinNode(type, [...path, key]),
    item: () => openApiNode(undefined),
  };
}

function rootNode(type: ResourceType): SchemaNode {
  const inner = type.builtin ? builtinNode(type) : openApiNode(type.custom?.openAPIV3Schema);
  return { ...inner, child: (key) => (key === 'metadata' ? metadataNode() : inner.child(key)) };
}

const UNTRACKED_ROOT = new Set(['apiVersion', 'kind']);
const TRACKED_META = new Set(['generateName', 'labels', 'annotations', 'finalizers', 'ownerReferences']);

/** Every tracked path of an object, containers included (a container path means "this map exists"). */
function collect(value: unknown, node: SchemaNode, prefix: string, out: Paths, depth: number, top?: string): void {
  if (isObj(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (depth === 0 && UNTRACKED_ROOT.has(key)) continue;
      if (depth === 1 && top === 'metadata' && !TRACKED_META.has(key)) continue;
      const path = prefix ? `${prefix}${SEP}f:${key}` : `f:${key}`;
      const child = node.child(key);
      const isContainer = (isObj(v) && !child.atomic) || (Array.isArray(v) && (child.listType === 'map' || child.listType === 'set'));
      const skipSelf = (depth === 0 && key === 'metadata') || (isContainer && child.struct);
      if (!skipSelf) out.add(path);
      if (isObj(v) && !child.atomic) collect(v, child, path, out, depth + 1, depth === 0 ? key : top);
      else if (Array.isArray(v) && child.listType === 'set') for (const x of v) out.add(`${path}${SEP}v:${JSON.stringify(x)}`);
      else if (Array.isArray(v) && child.listType === 'map') {
        for (const item of v) {
          if (!isObj(item)) continue;
          const keyObj: Record<string, unknown> = {};
          for (const k of child.listKeys ?? []) keyObj[k] = item[k];
          const itemPath = `${path}${SEP}k:${JSON.stringify(keyObj)}`;
          out.add(itemPath);
          collect(item, child.item(), itemPath, out, depth + 2, top);
        }
      }
    }
  }
}

/** Value at a path, to tell changed leaves from unchanged ones. */
function valueAt(obj: unknown, path: string): unknown {
  let cur: any = obj;
  for (const seg of path.split(SEP)) {
    if (cur === undefined) return undefined;
    if (seg.startsWith('f:')) cur = isObj(cur) ? cur[seg.slice(2)] : undefined;
    else if (seg.startsWith('v:')) { const v = JSON.parse(seg.slice(2)); cur = Array.isArray(cur) && cur.some((x) => deepEqual(x, v)) ? v : undefined; }
    else if (seg.startsWith('k:')) {
      const k = JSON.parse(seg.slice(2));
      cur = Array.isArray(cur) ? cur.find((x) => isObj(x) && Object.entries(k).every(([kk, kv]) => deepEqual(x[kk], kv))) : undefined;
    }
  }
  return cur;
}

export function fieldsToTree(paths: Paths): Record<string, unknown> {
  const tree: any = {};
  const sorted = [...paths].sort();
  for (const path of sorted) {
    let node = tree;
    for (const seg of path.split(SEP)) node = node[seg] ??= {};
  }
  // A path that is both owned and has owned children gets "." (the map itself); sort keys like the real encoder.
  const finish = (node: any, prefix: string): any => {
    const keys = Object.keys(node);
    const out: any = {};
    if (keys.length && prefix && paths.has(prefix)) out['.'] = {};
    for (const k of keys.sort()) out[k] = finish(node[k], prefix ? `${prefix}${SEP}${k}` : k);
    return out;
  };
  return finish(tree, '');
}

function treeToFields(tree: any, prefix = '', out: Paths = new Set()): Paths {
  for (const [k, v] of Object.entries(tree ?? {})) {
    if (k === '.') { if (prefix) out.add(prefix); continue; }
    const path = prefix ? `${prefix}${SEP}${k}` : k;
    if (!v || Object.keys(v as object).length === 0) out.add(path);
    else treeToFields(v, path, out);
  }
  return out;
}

export interface ManagerInfo { manager: string; subresource?: string; apiVersion: string; nowMs: number }

/** Limits a field set to what one kind of write may touch: status for /status, everything but status otherwise. */
function scoped(paths: Paths, type: ResourceType, subresource?: string): Paths {
  const untracked = (type.builtin?.untrackedPaths ?? []).map((p) => p.map((x) => `f:${x}`).join(SEP));
  const out: Paths = new Set();
  for (const p of paths) {
    const inStatus = p === 'f:status' || p.startsWith(`f:status${SEP}`);
    if (subresource === 'status' ? !inStatus : (type.statusSubresource && inStatus)) continue;
    if (!subresource && untracked.some((u) => p === u || p.startsWith(u + SEP))) continue;
    out.add(p);
  }
  return out;
}

/** Returns the new managedFields for an Update-operation write from `oldObj` (undefined on create) to `newObj`. */
export function updateManagedFields(type: ResourceType, oldObj: any, newObj: any, who: ManagerInfo): any[] | undefined {
  const root = rootNode(type);
  const newPaths: Paths = new Set();
  collect(newObj, root, '', newPaths, 0);
  const oldPaths: Paths = new Set();
  if (oldObj) collect(oldObj, root, '', oldPaths, 0);
  const changed: Paths = new Set();
  for (const p of scoped(newPaths, type, who.subresource)) {
    if (!oldPaths.has(p)) changed.add(p);
    else if (isLeaf(p, newPaths) && !deepEqual(valueAt(oldObj, p), valueAt(newObj, p))) changed.add(p);
  }
  const removed = [...oldPaths].filter((p) => !newPaths.has(p));
  const entries: any[] = structuredClone(oldObj ? oldObj.metadata?.managedFields ?? [] : []);
  const time = formatTime(who.nowMs);
  let mine = entries.find((e) => e.manager === who.manager && e.operation === 'Update' && (e.subresource ?? undefined) === who.subresource);
  if (!mine && changed.size === 0 && removed.length === 0) return entries.length ? entries : undefined;
  const result: any[] = [];
  let mineUpdated: any;
  for (const e of entries) {
    const set = treeToFields(e.fieldsV1);
    const before = set.size;
    for (const p of removed) set.delete(p);
    if (e !== mine) for (const p of changed) set.delete(p);
    else for (const p of changed) set.add(p);
    if (set.size === 0) continue;
    if (e === mine && changed.size > 0) {
      // The writer's entry moves to the end of the list (golden 99).
      mineUpdated = { ...e, time, fieldsV1: fieldsToTree(set) };
      continue;
    }
    result.push(set.size !== before ? { ...e, fieldsV1: fieldsToTree(set) } : e);
  }
  if (mineUpdated) result.push(mineUpdated);
  if (!mine && changed.size) {
    mine = { manager: who.manager, operation: 'Update', apiVersion: who.apiVersion, time, fieldsType: 'FieldsV1',
      fieldsV1: fieldsToTree(changed), subresource: who.subresource };
    result.push(mine);
  }
  return result.length ? result.map(tidy(type)) : undefined;
}

/** Entries for a server-side apply create: the applied fields, leaves only (golden 29). */
export function applyManagedFields(type: ResourceType, applied: any, who: ManagerInfo): any[] {
  const paths: Paths = new Set();
  collect(applied, rootNode(type), '', paths, 0);
  const leaves = new Set([...scoped(paths, type, who.subresource)].filter((p) => isLeaf(p, paths)));
  return [tidy(type)({ manager: who.manager, operation: 'Apply', apiVersion: who.apiVersion, time: formatTime(who.nowMs),
    fieldsType: 'FieldsV1', fieldsV1: fieldsToTree(leaves), subresource: who.subresource })];
}

const isLeaf = (p: string, all: Paths) => ![...all].some((q) => q.startsWith(p + SEP));

const tidy = (type: ResourceType) => (e: any) => {
  const out = { ...e };
  if (!out.subresource) delete out.subresource;
  return type.builtin ? orderByShape(out, managedFieldsShape) : Object.fromEntries(Object.keys(out).sort().map((k) => [k, out[k]]));
};
