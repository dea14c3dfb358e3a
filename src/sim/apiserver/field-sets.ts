// Field sets as structured-merge-diff sees them: every tracked path of an object (containers included, so "this
// map exists" can be owned), following the schema: atomic maps and lists are single leaves, list-type=set items
// are "v:" paths, list-type=map items "k:" paths. Encoded as FieldsV1 with "." for a map owned with its children.
import type { ResourceType } from './types.js';

export const SEP = '\u0001';
export type Paths = Set<string>;

export interface SchemaNode {
  atomic: boolean;
  struct: boolean;
  listType?: string;
  listKeys?: string[];
  child(key: string): SchemaNode;
  item(): SchemaNode;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const deepEqual = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function openApiNode(s: any): SchemaNode {
  return {
    atomic: s?.['x-kubernetes-map-type'] === 'atomic',
    struct: false,
    listType: s?.['x-kubernetes-list-type'],
    listKeys: s?.['x-kubernetes-list-map-keys'],
    child: (key) =>
      openApiNode(s?.properties?.[key] ?? (isObj(s?.additionalProperties) ? s.additionalProperties : undefined)),
    item: () => openApiNode(s?.items),
  };
}

/** ObjectMeta as the real typed schema sees it: finalizers is a set, ownerReferences a map keyed by uid. */
function metadataNode(): SchemaNode {
  const plain = openApiNode(undefined);
  return {
    ...plain,
    child: (key) =>
      key === 'finalizers'
        ? { ...plain, listType: 'set' }
        : key === 'ownerReferences'
          ? { ...plain, listType: 'map', listKeys: ['uid'] }
          : plain,
  };
}

function builtinNode(type: ResourceType, path: string[] = []): SchemaNode {
  const b = type.builtin!;
  const match = (list?: string[][]) =>
    (list ?? []).some((p) => p.length === path.length && p.every((x, i) => x === path[i]));
  return {
    atomic: match(b.atomicPaths),
    struct: match(b.structPaths),
    listType: path.join('.') === 'status.conditions' ? 'map' : undefined,
    listKeys: path.join('.') === 'status.conditions' ? ['type'] : undefined,
    child: (key) => builtinNode(type, [...path, key]),
    item: () => openApiNode(undefined),
  };
}

export function rootNode(type: ResourceType): SchemaNode {
  const inner = type.builtin ? builtinNode(type) : openApiNode(type.custom?.openAPIV3Schema);
  return { ...inner, child: (key) => (key === 'metadata' ? metadataNode() : inner.child(key)) };
}

const UNTRACKED_ROOT = new Set(['apiVersion', 'kind']);
const TRACKED_META = new Set(['generateName', 'labels', 'annotations', 'finalizers', 'ownerReferences']);

/** Every tracked path of an object, containers included (a container path means "this map exists"). */
export function collect(
  value: unknown,
  node: SchemaNode,
  prefix: string,
  out: Paths,
  depth: number,
  top?: string,
): void {
  if (isObj(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (depth === 0 && UNTRACKED_ROOT.has(key)) continue;
      if (depth === 1 && top === 'metadata' && !TRACKED_META.has(key)) continue;
      const path = prefix ? `${prefix}${SEP}f:${key}` : `f:${key}`;
      const child = node.child(key);
      const isContainer =
        (isObj(v) && !child.atomic) || (Array.isArray(v) && (child.listType === 'map' || child.listType === 'set'));
      const skipSelf = (depth === 0 && key === 'metadata') || (isContainer && child.struct);
      if (!skipSelf) out.add(path);
      if (isObj(v) && !child.atomic) collect(v, child, path, out, depth + 1, depth === 0 ? key : top);
      else if (Array.isArray(v) && child.listType === 'set')
        for (const x of v) out.add(`${path}${SEP}v:${JSON.stringify(x)}`);
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
export function valueAt(obj: unknown, path: string): unknown {
  let cur: any = obj;
  for (const seg of path.split(SEP)) {
    if (cur === undefined) return undefined;
    if (seg.startsWith('f:')) cur = isObj(cur) ? cur[seg.slice(2)] : undefined;
    else if (seg.startsWith('v:')) {
      const v = JSON.parse(seg.slice(2));
      cur = Array.isArray(cur) && cur.some((x) => deepEqual(x, v)) ? v : undefined;
    } else if (seg.startsWith('k:')) {
      const k = JSON.parse(seg.slice(2));
      cur = Array.isArray(cur)
        ? cur.find((x) => isObj(x) && Object.entries(k).every(([kk, kv]) => deepEqual(x[kk], kv)))
        : undefined;
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

export function treeToFields(tree: any, prefix = '', out: Paths = new Set()): Paths {
  for (const [k, v] of Object.entries(tree ?? {})) {
    if (k === '.') {
      if (prefix) out.add(prefix);
      continue;
    }
    const path = prefix ? `${prefix}${SEP}${k}` : k;
    if (!v || Object.keys(v).length === 0) out.add(path);
    else treeToFields(v, path, out);
  }
  return out;
}

export const isLeaf = (p: string, all: Paths) => ![...all].some((q) => q.startsWith(p + SEP));
