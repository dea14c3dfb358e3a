// Where a hostile body case lands: every value of a body with the schema it must meet, set or removed by path, the
// valid body enriched with one optional field, and the slots a case picks from (fuzz-body-cases.ts).
import { baseBodyValue, type CaseContext } from './fuzz-case.js';
import { sampleOf, type Schema } from './fuzz-openapi.js';
import type { Random } from './fuzz-random.js';

export interface Slot {
  path: Array<string | number>;
  schema: Schema;
}

/** Every value in the body with the schema it must meet. */
export function slotsOf(value: unknown, schema: Schema, c: CaseContext, path: Array<string | number> = []): Slot[] {
  const s = c.resolve(schema);
  const out: Slot[] = [{ path, schema: s }];
  if (Array.isArray(value) && s.items) value.forEach((v, i) => out.push(...slotsOf(v, s.items!, c, [...path, i])));
  else if (value && typeof value === 'object' && s.properties) {
    for (const [k, v] of Object.entries(value)) {
      const p = s.properties[k];
      if (p) out.push(...slotsOf(v, p, c, [...path, k]));
    }
  } else if (value && typeof value === 'object') {
    // anyOf of objects (a platform, a selector): follow the alternative that declares the keys.
    const alt = (s.anyOf ?? s.oneOf ?? [])
      .map((a) => c.resolve(a))
      .find((a) => a.properties && Object.keys(value).every((k) => k in a.properties!));
    if (alt) return [{ path, schema: s }, ...slotsOf(value, alt, c, path).slice(1)];
  }
  return out;
}

export function setAt(root: unknown, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  let cur = root as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  cur[path[path.length - 1]!] = value;
  return root;
}

export function deleteAt(root: unknown, path: Array<string | number>): void {
  let cur = root as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  delete cur[path[path.length - 1]!];
}

export const where = (path: Array<string | number>) => (path.length ? path.join('.') : 'body');

/**
 * The valid body, half the time with one optional field it leaves out added (a schema-valid sample), so fields
 * no sample sets (inline credentials, exceptions, selectors) are reached too; `focus` is where it was added.
 */
export function enriched(c: CaseContext, r: Random): { value: unknown; focus?: Array<string | number> } {
  const value = baseBodyValue(c);
  if (!r.chance(0.5)) return { value };
  const open = slotsOf(value, c.op.body!, c).flatMap((slot) => {
    const props = c.resolve(slot.schema).properties;
    const here = valueAt(value, slot.path);
    if (!props || !here || typeof here !== 'object' || Array.isArray(here)) return [];
    return Object.keys(props)
      .filter((k) => !(k in here))
      .map((k) => ({ path: [...slot.path, k], schema: props[k]! }));
  });
  if (open.length === 0) return { value };
  const add = r.pick(open);
  setAt(value, add.path, sampleOf(add.schema, c.resolve));
  return { value, focus: add.path };
}

export const valueAt = (root: unknown, path: Array<string | number>) =>
  path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], root);

/** Slots under `focus` when there are any (most of the time), else all. */
export function focused(slots: Slot[], r: Random, focus?: Array<string | number>): Slot[] {
  if (!focus || !r.chance(0.7)) return slots;
  const under = slots.filter((s) => focus.every((k, i) => s.path[i] === k));
  return under.length ? under : slots;
}
