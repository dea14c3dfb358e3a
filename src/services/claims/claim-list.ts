// GET /v1/claims: served from the informer cache, filtered, oldest first (Hive's queue order), and paged like
// GET /v1/clusters with an opaque cursor: the (creationTimestamp, id) of the last claim seen, so paging stays stable
// while claims come (new ones sort last) and go.
import { invalid } from '../../hive/errors.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { Clock, HiveStore } from '../ports.js';
import { buildClaimView, type ClaimView, type PoolReads } from './claim-view.js';

export interface ClaimFilter {
  hub?: string;
  namespace?: string;
  /** `hub/namespace/name` of a pool. */
  pool?: string;
  phase?: ClaimView['phase'];
  /** Page size, 1 to 1000 (default 100). */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

export interface ClaimPage {
  items: ClaimView[];
  /** Pass as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
  total: number;
}

type SortKey = [createdAt: string, id: string];

const compare = (a: SortKey, b: SortKey) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]);
const keyOf = (v: ClaimView): SortKey => [v.createdAt ?? '', v.id];

function decodeCursor(cursor: string): SortKey {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(key) && key.length === 2 && key.every((k) => typeof k === 'string')) return key as SortKey;
  } catch {
    // falls through to the refusal
  }
  throw invalid('cursor', 'not a cursor this API returned');
}

/** `visible`: only the claims the caller may see count, filtered before paging so pages and totals stay right. */
export function listClaims(
  deps: { store: HiveStore; clock: Clock },
  filter: ClaimFilter = {},
  visible?: (hub: string, claim: ClusterClaim) => boolean,
): ClaimPage {
  const limit = filter.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw invalid('limit', 'must be an integer from 1 to 1000');
  if (filter.hub && !deps.store.hubNames().includes(filter.hub)) throw invalid('hub', `unknown hub "${filter.hub}"`);
  const after = filter.cursor ? decodeCursor(filter.cursor) : undefined;
  const reads: PoolReads = new Map();
  const rows = deps.store
    .cachedList<ClusterClaim>('ClusterClaim', { hub: filter.hub, namespace: filter.namespace })
    .filter(
      ({ hub, object }) =>
        (!visible || visible(hub, object)) &&
        (!filter.pool || `${hub}/${object.metadata.namespace}/${object.spec.clusterPoolName}` === filter.pool),
    )
    .map(({ hub, object }) => buildClaimView(deps, hub, object, reads))
    .filter((v) => !filter.phase || v.phase === filter.phase)
    .sort((a, b) => compare(keyOf(a), keyOf(b)));

  const start = after ? rows.findIndex((v) => compare(keyOf(v), after) > 0) : 0;
  const page = start < 0 ? [] : rows.slice(start, start + limit);
  const last = page.at(-1);
  const more = start >= 0 && start + limit < rows.length;
  return {
    items: page,
    ...(more && last ? { nextCursor: Buffer.from(JSON.stringify(keyOf(last)), 'utf8').toString('base64url') } : {}),
    total: rows.length,
  };
}
