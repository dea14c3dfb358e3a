// Server-side printing: `Accept: application/json;as=Table;g=meta.k8s.io;v=v1` (what kubectl get sends) turns a
// GET, LIST or watch event into a meta.k8s.io Table whose rows carry the object's metadata
// (includeObject=Metadata, the default), the object (Object) or nothing (None).
import type { ResourceType } from './types.js';
import { columnsFor } from './printer-columns.js';
import { ApiError, statusBody } from './status.js';

export interface TableRequest {
  apiVersion: string;
  includeObject: 'None' | 'Metadata' | 'Object';
}

/** The Table the client asked for, if its first acceptable media type is one (content negotiation order). */
export function tableRequestOf(accept: string | undefined, query: URLSearchParams): TableRequest | undefined {
  for (const entry of (accept ?? '').split(',')) {
    const [mediaType = '', ...params] = entry.split(';').map((p) => p.trim());
    const p = Object.fromEntries(params.map((x) => x.split('=').map((y) => y.trim())));
    if (mediaType !== 'application/json' && mediaType !== '*/*' && mediaType !== 'application/*') continue;
    if (p.as !== 'Table') {
      if (p.as) continue; // PartialObjectMetadata and other transforms are not served: try the next entry
      return undefined;
    }
    if (p.g !== 'meta.k8s.io' || (p.v !== 'v1' && p.v !== 'v1beta1')) continue;
    const includeObject = query.get('includeObject') ?? 'Metadata';
    if (!['None', 'Metadata', 'Object'].includes(includeObject)) {
      throw new ApiError(400, statusBody(400, 'BadRequest', `unrecognized includeObject value: "${includeObject}"`));
    }
    return { apiVersion: `meta.k8s.io/${p.v}`, includeObject: includeObject as TableRequest['includeObject'] };
  }
  if (accept && /as=Table/.test(accept) && !/(^|,)\s*(application\/json|\*\/\*)\s*(,|$)/.test(accept)) {
    throw new ApiError(
      406,
      statusBody(
        406,
        'NotAcceptable',
        'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
      ),
    );
  }
  return undefined;
}

export interface TableMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

/** A Table of `objects` (API-view JSON objects), with column definitions unless noHeaders. */
export function renderTable(
  type: ResourceType,
  objects: any[],
  meta: TableMeta,
  req: TableRequest,
  nowMs: number,
  noHeaders = false,
) {
  const columns = columnsFor(type);
  const metadata: TableMeta = {};
  if (meta.resourceVersion) metadata.resourceVersion = meta.resourceVersion;
  if (meta.continue) metadata.continue = meta.continue;
  if (meta.remainingItemCount !== undefined) metadata.remainingItemCount = meta.remainingItemCount;
  const table: Record<string, unknown> = { kind: 'Table', apiVersion: req.apiVersion, metadata };
  if (!noHeaders) {
    table.columnDefinitions = columns.map(({ name, type: t, format, description, priority }) => ({
      name,
      type: t,
      format,
      description,
      priority,
    }));
  }
  table.rows = objects.map((obj) => ({
    cells: columns.map((c) => c.cell(obj, nowMs) ?? null),
    object:
      req.includeObject === 'None'
        ? null
        : req.includeObject === 'Object'
          ? obj
          : { kind: 'PartialObjectMetadata', apiVersion: req.apiVersion, metadata: obj.metadata },
  }));
  return table;
}
