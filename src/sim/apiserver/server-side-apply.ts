// Server-side apply on an existing object: the applied configuration is merged in, fields this manager applied
// before and now omits are removed (unless another manager also owns them), and changing a field someone else owns
// is a 409 conflict unless ?force=true, which moves the ownership. The manager's Apply entry owns exactly the
// applied fields.
import type { ResourceType } from './types.js';
import { ApiError, statusBody } from './status.js';
import { mergePatch } from './patch.js';
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
import { scoped, tidy, type ManagerInfo } from './managed-fields.js';
import { formatTime } from './meta.js';

/** ".spec.platform.aws.region" style, as conflict messages print field paths. */
function printable(path: string): string {
  return path
    .split(SEP)
    .map((seg) => {
      if (seg.startsWith('f:')) return `.${seg.slice(2)}`;
      if (seg.startsWith('v:')) return `[=${seg.slice(2)}]`;
      const keys = JSON.parse(seg.slice(2)) as Record<string, unknown>;
      return `[${Object.entries(keys)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(',')}]`;
    })
    .join('');
}

function deletePath(obj: any, path: string): void {
  const segs = path.split(SEP);
  if (!segs.every((s) => s.startsWith('f:'))) return;
  let cur = obj;
  for (const s of segs.slice(0, -1)) {
    cur = cur?.[s.slice(2)];
    if (typeof cur !== 'object' || cur === null) return;
  }
  delete cur[segs[segs.length - 1]!.slice(2)];
}

export function applyToExisting(
  type: ResourceType,
  current: any,
  applied: any,
  who: ManagerInfo,
  force: boolean,
): { object: any; managedFields: any[] } {
  const all: Paths = new Set();
  collect(applied, rootNode(type), '', all, 0);
  const mineNow = new Set([...scoped(all, type, who.subresource)].filter((p) => isLeaf(p, all)));
  const entries: any[] = current.metadata?.managedFields ?? [];
  const isMine = (e: any) =>
    e.manager === who.manager && e.operation === 'Apply' && (e.subresource ?? undefined) === who.subresource;
  const before = entries.find(isMine);
  const others = entries.filter((e) => !isMine(e)).map((e) => ({ entry: e, set: treeToFields(e.fieldsV1) }));

  const { metadata: appliedMeta, ...appliedRest } = applied ?? {};
  const object = mergePatch(current, { ...appliedRest, metadata: appliedMeta ?? {} }) as any;
  for (const p of before ? treeToFields(before.fieldsV1) : []) {
    if (!mineNow.has(p) && !others.some((o) => o.set.has(p))) deletePath(object, p);
  }

  const conflicts: Array<{ manager: string; apiVersion: string; path: string }> = [];
  for (const p of mineNow) {
    if (deepEqual(valueAt(current, p), valueAt(object, p))) continue; // same value: ownership is shared
    for (const o of others)
      if (o.set.has(p)) conflicts.push({ manager: o.entry.manager, apiVersion: o.entry.apiVersion, path: p });
  }
  if (conflicts.length && !force) throw conflictError(conflicts);

  const result: any[] = [];
  for (const o of others) {
    const lost = conflicts.filter((c) => c.manager === o.entry.manager).map((c) => c.path);
    lost.forEach((p) => o.set.delete(p));
    if (o.set.size) result.push(lost.length ? { ...o.entry, fieldsV1: fieldsToTree(o.set) } : o.entry);
  }
  if (mineNow.size) {
    result.push(
      tidy(type)({
        manager: who.manager,
        operation: 'Apply',
        apiVersion: who.apiVersion,
        time: formatTime(who.nowMs),
        fieldsType: 'FieldsV1',
        fieldsV1: fieldsToTree(mineNow),
        subresource: who.subresource,
      }),
    );
  }
  return { object, managedFields: result };
}

function conflictError(conflicts: Array<{ manager: string; apiVersion: string; path: string }>): ApiError {
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with "${c.manager}" using ${c.apiVersion}`,
    field: printable(c.path),
  }));
  const message =
    conflicts.length === 1
      ? `Apply failed with 1 conflict: ${causes[0]!.message}: ${causes[0]!.field}`
      : `Apply failed with ${conflicts.length} conflicts: ${[
          ...new Set(
            conflicts.map(
              (c) =>
                `conflicts with "${c.manager}" using ${c.apiVersion}:\n${conflicts
                  .filter((x) => x.manager === c.manager)
                  .map((x) => `- ${printable(x.path)}`)
                  .join('\n')}`,
            ),
          ),
        ].join('\n')}`;
  return new ApiError(409, statusBody(409, 'Conflict', message, { causes }));
}
