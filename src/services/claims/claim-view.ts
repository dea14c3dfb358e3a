// What GET /v1/claims/{hub}/{namespace}/{name} answers: the claim, where it stands and why, its cluster's URLs.
import { claimStatus, type ClaimStatus } from '../../hive/claims/claim-status.js';
import { poolHistory, type PoolHistory } from '../../hive/claims/eta.js';
import { poolSupply, type PoolSupply } from '../../hive/claims/pool-supply.js';
import { parseDuration } from '../../hive/claims/duration.js';
import {
  HEARTBEAT_TIMEOUT_ANNOTATION,
  LIFETIME_HISTORY_ANNOTATION,
  PICKED_BECAUSE_ANNOTATION,
  REQUESTED_BY_ANNOTATION,
} from '../../hive/pools/labels.js';
import { findCondition } from '../../hive/types.js';
import type { ClusterClaim, ClusterDeployment, ClusterPool } from '../../hive/pools/types.js';
import { NotFound } from '../../hive/errors.js';
import { readHistory, type ExpiryHistoryEntry } from '../../hive/expiry/history.js';
import type { Clock, HiveStore, NamespacedRef } from '../ports.js';
import { cachedPool, poolClaims, poolClusters } from '../pools/pool-lookup.js';
import { refId } from '../../hive/object-ref.js';

export interface ClaimView extends ClaimStatus {
  id: string;
  hub: string;
  namespace: string;
  name: string;
  pool: string;
  createdAt?: string;
  /** Why Beekeeper picked this pool, when the claim asked by attributes. */
  pickedBecause?: string;
  requestedBy?: string;
  subjects: NonNullable<ClusterClaim['spec']['subjects']>;
  /** The claimed cluster: `{hub}/{namespace}/{name}` and its URLs once Hive reports them. */
  cluster?: { id: string; apiURL?: string; webConsoleURL?: string; powerState?: string };
  heartbeatTimeoutSeconds?: number;
  /** Every change of the lifetime (services/expiry/expiry-record.ts): the entry shape of every expiry history. */
  lifetimeHistory: ExpiryHistoryEntry[];
  links: { self: string; events: string; kubeconfig: string; credentials: string; heartbeat: string };
}

export function claimRefOf(hub: string, claim: ClusterClaim): NamespacedRef {
  return { hub, namespace: claim.metadata.namespace!, name: claim.metadata.name };
}

export function claimCluster(store: HiveStore, hub: string, claim: ClusterClaim): ClusterDeployment | undefined {
  const ns = claim.spec.namespace;
  return ns ? store.cached<ClusterDeployment>('ClusterDeployment', { hub, namespace: ns, name: ns }) : undefined;
}

interface PoolRead {
  supply: PoolSupply;
  /** The pool's install and resume durations, from its clusters (eta.ts); read once a claim needs an estimate. */
  history?: PoolHistory;
  clusters: ClusterDeployment[];
}

/** Per-pool reads shared by the views of one listing, so listing N claims reads each pool's objects once. */
export type PoolReads = Map<string, PoolRead>;

const NO_SUPPLY: PoolSupply = {
  queue: [],
  coming: [],
  byClaim: new Map(),
  total: 0,
  claimed: 0,
  removing: 0,
  installing: 0,
  deleting: 0,
};

function readPool(store: HiveStore, ref: NamespacedRef, pool: ClusterPool | undefined): PoolRead {
  if (!pool) return { supply: NO_SUPPLY, clusters: [] };
  // Clusters and claims read together, at one moment, so the story they tell is one story (pool-supply.ts).
  const clusters = poolClusters(store, ref);
  return { supply: poolSupply(pool, poolClaims(store, ref), clusters), clusters };
}

export function buildClaimView(
  deps: { store: HiveStore; clock: Clock },
  hub: string,
  claim: ClusterClaim,
  reads: PoolReads = new Map(),
): ClaimView {
  const ref = claimRefOf(hub, claim);
  const poolRef: NamespacedRef = { hub, namespace: ref.namespace, name: claim.spec.clusterPoolName };
  const poolKey = refId(poolRef);
  const cluster = claimCluster(deps.store, hub, claim);
  const pool = cachedPool(deps.store, poolRef);
  const read = reads.get(poolKey) ?? readPool(deps.store, poolRef, pool);
  reads.set(poolKey, read);
  // A running claim needs no estimate; every other may (a build, a resume, its own cluster starting).
  const needsHistory = findCondition(claim, 'ClusterRunning')?.status !== 'True';
  const history = needsHistory ? (read.history ??= poolHistory(read.clusters)) : { installsMs: [], resumesMs: [] };
  const status = claimStatus(claim, { now: deps.clock.now(), pool, cluster, supply: read.supply, history });
  const annotations = claim.metadata.annotations ?? {};
  const self = `/v1/claims/${refId(ref)}`;
  const timeout = annotations[HEARTBEAT_TIMEOUT_ANNOTATION];
  return {
    id: refId(ref),
    ...ref,
    pool: `${hub}/${poolRef.namespace}/${poolRef.name}`,
    ...status,
    // Every object in the API is addressed {hub}/{namespace}/{name}; the status rules know no hubs.
    ...(status.step ? { step: { ...status.step, cluster: `${hub}/${status.step.cluster}` } } : {}),
    createdAt: claim.metadata.creationTimestamp,
    pickedBecause: annotations[PICKED_BECAUSE_ANNOTATION],
    requestedBy: annotations[REQUESTED_BY_ANNOTATION],
    subjects: claim.spec.subjects ?? [],
    cluster: cluster
      ? {
          id: `${hub}/${cluster.metadata.namespace}/${cluster.metadata.name}`,
          apiURL: cluster.status?.apiURL,
          webConsoleURL: cluster.status?.webConsoleURL,
          powerState: cluster.status?.powerState,
        }
      : undefined,
    heartbeatTimeoutSeconds: timeout ? (parseDuration(timeout) ?? 0) / 1000 : undefined,
    lifetimeHistory: readHistory(annotations, LIFETIME_HISTORY_ANNOTATION),
    links: {
      self,
      events: `${self}/events`,
      kubeconfig: `${self}/kubeconfig`,
      credentials: `${self}/credentials`,
      heartbeat: `${self}/heartbeat`,
    },
  };
}

export function requireClaim(store: HiveStore, ref: NamespacedRef): ClusterClaim {
  const claim = store.cached<ClusterClaim>('ClusterClaim', ref);
  if (!claim) throw new NotFound(`claim ${refId(ref)} not found`);
  return claim;
}

/** How long a read waits for the informer to catch up with an object the API server already has. */
const CACHE_LAG_MS = 5000;

/**
 * The claim from the cache; when the cache has not seen it yet (a GET right after the POST that created it),
 * confirm it exists live and wait for the informer, so every later read agrees.
 */
export async function loadClaim(store: HiveStore, ref: NamespacedRef): Promise<ClusterClaim> {
  const cached = store.cached<ClusterClaim>('ClusterClaim', ref);
  if (cached) return cached;
  if (!(await store.get<ClusterClaim>('ClusterClaim', ref))) throw new NotFound(`claim ${refId(ref)} not found`);
  return store.waitFor<ClusterClaim, ClusterClaim>('ClusterClaim', ref, (c) => c, { timeoutMs: CACHE_LAG_MS });
}
