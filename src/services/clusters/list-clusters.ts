// GET /v1/clusters: served from the informer cache, filtered, sorted by {hub}/{namespace}/{name} and paged with an
// opaque cursor (the last key seen), so paging stays stable while clusters come and go.
import { POWER_STATES } from '../../hive/constants.js';
import { invalid } from '../../hive/errors.js';
import { lifecyclePhase, PHASES } from '../../hive/phase.js';
import type { ClusterDeployment } from '../../hive/types.js';
import type { HiveStore } from '../ports.js';
import { summarize, type ClusterSummary } from './cluster-summary.js';

export interface ListClustersQuery {
  hub?: string;
  namespace?: string;
  labelSelector?: string;
  /** Matches status.powerState (e.g. `Hibernating`, `WaitingForNodes`) or the lifecycle phase (e.g. `Resuming`). */
  powerState?: string;
  /** `<name>` or `<namespace>/<name>` of a ClusterPool. */
  pool?: string;
  claimed?: boolean;
  limit?: number;
  cursor?: string;
}

export interface ClusterPage {
  items: ClusterSummary[];
  /** Pass as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
  total: number;
}

const POWER_FILTERS = [...new Set([...POWER_STATES, ...PHASES])];

/**
 * List items by cached object. A cached object is never changed in place (a watch event replaces it), and its
 * summary is a function of it alone, so each is summarised once, not on every page that shows it; a replaced
 * object's entry goes with it (weakly held). The items are shared between answers: nothing may change them.
 */
const listItems = new WeakMap<ClusterDeployment, ClusterSummary>();

function listItem(hub: string, cd: ClusterDeployment): ClusterSummary {
  let item = listItems.get(cd);
  if (item?.hub !== hub) {
    item = summarize(hub, cd);
    listItems.set(cd, item);
  }
  return item;
}

/** The first row whose key sorts after `key` (rows in key order), by bisection; rows.length when none does. */
function firstAfter(rows: ReadonlyArray<{ key: string }>, key: string): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]!.key <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function decodeCursor(cursor: string): string {
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  if (key.split('/').length !== 3) throw invalid('cursor', 'not a cursor this API returned');
  return key;
}

/** `visible`: only the clusters the caller may see count, filtered before paging so pages and totals stay right. */
export function listClusters(
  store: HiveStore,
  q: ListClustersQuery,
  visible?: (hub: string, cd: ClusterDeployment) => boolean,
): ClusterPage {
  const limit = q.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    throw invalid('limit', 'must be an integer from 1 to 1000');
  if (q.hub && !store.hubNames().includes(q.hub)) throw invalid('hub', `unknown hub "${q.hub}"`);
  // A typo ("hibernating") would otherwise match nothing and read as "no such clusters".
  if (q.powerState && !(POWER_FILTERS as readonly string[]).includes(q.powerState)) {
    throw invalid(
      'powerState',
      `"${q.powerState}" is neither a status.powerState nor a phase; one of ${POWER_FILTERS.join(', ')}`,
    );
  }
  const after = q.cursor ? decodeCursor(q.cursor) : undefined;
  const [poolNs, poolName] = q.pool?.includes('/') ? q.pool.split('/', 2) : [undefined, q.pool];

  // The cache answers in key order, already narrowed by hub, namespace and label selector through its index;
  // the other filters are checked here, and only the requested page is summarised (a summary costs far more than
  // a check, and a page is a small slice of a large cache). `total` counts every match, so all are checked.
  const candidates = store.cachedInOrder<ClusterDeployment>('ClusterDeployment', {
    hub: q.hub,
    namespace: q.namespace,
    labelSelector: q.labelSelector,
  });
  const filtered = Boolean(visible || q.pool || q.claimed !== undefined || q.powerState);
  const rows = !filtered
    ? candidates
    : candidates.filter(({ hub, object: cd }) => {
        if (visible && !visible(hub, cd)) return false;
        const ref = cd.spec.clusterPoolRef;
        if (q.pool && (ref?.poolName !== poolName || (poolNs && ref?.namespace !== poolNs))) return false;
        if (q.claimed !== undefined && Boolean(ref?.claimName) !== q.claimed) return false;
        if (q.powerState && cd.status?.powerState !== q.powerState && lifecyclePhase(cd).phase !== q.powerState)
          return false;
        return true;
      });

  const start = after ? firstAfter(rows, after) : 0;
  const page = rows.slice(start, start + limit);
  const last = page.at(-1);
  const more = start + limit < rows.length;
  return {
    items: page.map((r) => listItem(r.hub, r.object)),
    ...(more && last ? { nextCursor: Buffer.from(last.key, 'utf8').toString('base64url') } : {}),
    total: rows.length,
  };
}
