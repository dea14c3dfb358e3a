import { ANNOTATIONS, LABELS } from '../constants.js';

// Beekeeper's own label and annotation keys. Labels on a ClusterPool that claims can select by; annotations on a
// ClusterClaim that Beekeeper's policy reads back (Kubernetes is the source of truth, ARCHITECTURE.md §1).

export const OWNER_LABEL = 'beekeeper.io/owner';
export const TEAM_LABEL = 'beekeeper.io/team';
/** Overrides the architecture read from the release image (needed for digest-pinned release images). */
export const ARCHITECTURE_LABEL = 'beekeeper.io/architecture';

/** Seconds without a heartbeat after which the claim is released; the Lease of the same name holds the state. */
export const HEARTBEAT_TIMEOUT_ANNOTATION = 'beekeeper.io/heartbeat-timeout';
/** JSON list of lifetime changes (`[{at, from, to, by?}]`), newest last: the claim's own audit trail. */
export const LIFETIME_HISTORY_ANNOTATION = 'beekeeper.io/lifetime-history';
/** Why Beekeeper picked this claim's pool, kept so GET can say it again later. */
export const PICKED_BECAUSE_ANNOTATION = 'beekeeper.io/picked-because';
/** Who asked for the claim, as the API saw the caller. */
export const REQUESTED_BY_ANNOTATION = 'beekeeper.io/requested-by';

/** Labels Hive puts on pool ClusterDeployments (REFERENCE.md §3.2; note the CD spelling `clusterpool-name`). */
export const POOL_NAME_LABEL = LABELS.clusterPoolName;
export const POOL_NAMESPACE_LABEL = LABELS.clusterPoolNamespace;
/** Annotation the claim controller writes on a released cluster (REFERENCE.md §3.1). */
export const REMOVE_FROM_POOL_ANNOTATION = ANNOTATIONS.removeClusterFromPool;
