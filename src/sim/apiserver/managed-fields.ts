// managedFields with the real ownership rule for Update operations (structured-merge-diff): the manager of a
// write owns every field it added or changed, those fields leave every other manager, removed fields leave
// everyone, and an entry whose set becomes empty is dropped. Field sets are encoded as FieldsV1 ("f:", "k:", "v:"
// and "." for a map that is owned as a whole), following the schema: atomic maps and lists are single leaves.
import type { ResourceType } from './types.js';
import { formatTime } from './meta.js';
import { orderByShape, managedFieldsShape } from './serialize.js';

import {
  SEP,
  collect,
  deepEqual,
  fieldsToTree,
  isLeaf,
  rootNode,
  treeToFields,
  valueAt,
  type Paths,
} from './field-sets.js';

export interface ManagerInfo {
  manager: string;
  subresource?: string;
  apiVersion: string;
  nowMs: number;
}

/** Limits a field set to what one kind of write may touch: status for /status, everything but status otherwise. */
export function scoped(paths: Paths, type: ResourceType, subresource?: string): Paths {
  const untracked = (type.builtin?.untrackedPaths ?? []).map((p) => p.map((x) => `f:${x}`).join(SEP));
  const out: Paths = new Set();
  for (const p of paths) {
    const inStatus = p === 'f:status' || p.startsWith(`f:status${SEP}`);
    if (subresource === 'status' ? !inStatus : type.statusSubresource && inStatus) continue;
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
  const entries: any[] = structuredClone(oldObj ? (oldObj.metadata?.managedFields ?? []) : []);
  const time = formatTime(who.nowMs);
  let mine = entries.find(
    (e) =>
      (e.manager ?? '') === who.manager && e.operation === 'Update' && (e.subresource ?? undefined) === who.subresource,
  );
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
    mine = {
      manager: who.manager,
      operation: 'Update',
      apiVersion: who.apiVersion,
      time,
      fieldsType: 'FieldsV1',
      fieldsV1: fieldsToTree(changed),
      subresource: who.subresource,
    };
    result.push(mine);
  }
  return result.length ? result.map(tidy(type)) : undefined;
}

/** Entries for a server-side apply create: the applied fields, leaves only (golden 29). */
export function applyManagedFields(type: ResourceType, applied: any, who: ManagerInfo): any[] {
  const paths: Paths = new Set();
  collect(applied, rootNode(type), '', paths, 0);
  const leaves = new Set([...scoped(paths, type, who.subresource)].filter((p) => isLeaf(p, paths)));
  return [
    tidy(type)({
      manager: who.manager,
      operation: 'Apply',
      apiVersion: who.apiVersion,
      time: formatTime(who.nowMs),
      fieldsType: 'FieldsV1',
      fieldsV1: fieldsToTree(leaves),
      subresource: who.subresource,
    }),
  ];
}

export const tidy = (type: ResourceType) => (e: any) => {
  const out = { ...e };
  if (!out.subresource) delete out.subresource;
  if (!out.manager) delete out.manager; // omitempty: a request without User-Agent or fieldManager has no manager
  return type.builtin
    ? orderByShape(out, managedFieldsShape)
    : Object.fromEntries(
        Object.keys(out)
          .sort()
          .map((k) => [k, out[k]]),
      );
};
