// The ports use cases talk through. The Kubernetes gateway (src/kube) implements HiveStore, the queue module
// (src/jobs) implements JobQueue. Services never import either implementation, so tests and other back ends
// plug in here.
import type { Clock } from '../clock.js';
import type { NamespacedRef, ObjectRef } from '../hive/object-ref.js';
import type { KubeObject, ObjectMeta } from '../hive/types.js';
import type { JobQueue } from './job-ports.js';

export type { Clock, KubeObject, NamespacedRef, ObjectMeta, ObjectRef };
// The queue's port (JobQueue, JobContext, JobHandler...) lives in job-ports.ts; use cases find every port here.
export * from './job-ports.js';

/** Every Kubernetes kind Beekeeper reads or writes, by its Kind name. The gateway owns the kind table. */
export type KindName =
  | 'ClusterDeployment'
  | 'ClusterPool'
  | 'ClusterClaim'
  | 'ClusterImageSet'
  | 'ClusterRelocate'
  | 'Namespace'
  | 'Secret'
  | 'ConfigMap'
  | 'Lease'
  | 'RoleBinding'
  | 'Event'
  | 'CustomResourceDefinition'
  // Beekeeper's own API group (deploy/crds/), stored on the state hub.
  | 'HibernationSchedule'
  | 'ClusterOverride'
  | 'ExpiryPolicy'
  | 'WebhookEndpoint'
  | 'Operation'
  | 'Relocation';

/** Kinds kept in an informer cache per hub: reads of these never go to the API server. */
export type CachedKind =
  | 'ClusterDeployment'
  | 'ClusterPool'
  | 'ClusterClaim'
  | 'ClusterImageSet'
  | 'ClusterRelocate'
  // Namespaces carry the team label (config teamLabel) that gives them an owner (src/auth/team-directory.ts).
  | 'Namespace'
  | 'HibernationSchedule'
  | 'ClusterOverride'
  | 'ExpiryPolicy'
  | 'WebhookEndpoint'
  | 'Operation'
  | 'Relocation';

export interface HubStatus {
  name: string;
  reachable: boolean;
  hiveCrdsPresent: boolean;
  /** Why it is unreachable or incomplete, in plain words. */
  message?: string;
  counts: Partial<Record<CachedKind, number>>;
  /** Informer health per kind: synced once, and the last error if the watch is currently broken. */
  informers: Partial<Record<CachedKind, { synced: boolean; lastError?: string }>>;
  /** When the credentials in use were loaded (ISO 8601); they are reloaded when their files change. */
  credentialsLoadedAt?: string;
  /** Set while the hub's credential files have changed to something that does not load (the last good ones are used). */
  credentialsProblem?: string;
}

/** A hub's informer caches without asking the hub: object counts and watch health per kind. */
export type HubCache = Pick<HubStatus, 'name' | 'counts' | 'informers' | 'credentialsLoadedAt' | 'credentialsProblem'>;

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface KubeEvent {
  type: 'Normal' | 'Warning';
  /** UpperCamelCase, e.g. `HibernateRequested`. */
  reason: string;
  message: string;
  /** What Beekeeper did, e.g. `Hibernate`. */
  action: string;
  /**
   * Names the Event after this key instead of the time: the same key on the same object always writes the same
   * Event, so work that runs again (a job retried after a crash) records its action once, not twice.
   */
  key?: string;
  /** Labels and annotations on the Event itself (audit records are found by label, read from an annotation). */
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /**
   * The namespace the Event is stored in, when not the object's (a cluster-scoped object's Events go to
   * `default` otherwise): audit records about no existing object go to Beekeeper's state namespace.
   */
  namespace?: string;
}

export interface HiveStore {
  hubNames(): string[];
  /** Probes every hub (a request each): only the periodic health refresh and preflights call it. */
  hubStatus(): Promise<HubStatus[]>;
  /** The informer caches of every hub, from memory (readiness, metrics). */
  hubCaches(): HubCache[];

  /** Read from the informer cache. */
  cached<T extends KubeObject>(kind: CachedKind, ref: ObjectRef): T | undefined;
  cachedList<T extends KubeObject>(
    kind: CachedKind,
    filter?: { hub?: string; namespace?: string; labelSelector?: string },
  ): Array<{ hub: string; object: T }>;
  /**
   * Like cachedList, in key order (`{hub}/{namespace}/{name}`, compared as strings), each with its key. Indexed
   * kinds (ClusterDeployment) are answered from an index the informers keep: the cost follows what matches, not the
   * cache's size. Throws Invalid (labelSelector) on a bad selector.
   */
  cachedInOrder<T extends KubeObject>(
    kind: CachedKind,
    filter?: { hub?: string; namespace?: string; labelSelector?: string },
  ): Array<{ key: string; hub: string; object: T }>;

  /** Live reads and writes. Errors are domain errors (NotFound, Conflict, Invalid, Forbidden, Unavailable). */
  get<T extends KubeObject>(kind: KindName, ref: ObjectRef): Promise<T | undefined>;
  list<T extends KubeObject>(
    kind: KindName,
    hub: string,
    opts?: { namespace?: string; labelSelector?: string },
  ): Promise<T[]>;
  create<T extends KubeObject>(kind: KindName, hub: string, obj: T, opts?: { dryRun?: boolean }): Promise<T>;
  /** JSON merge patch. `resourceVersion` makes it conditional (409 Conflict when stale). */
  mergePatch<T extends KubeObject>(
    kind: KindName,
    ref: ObjectRef,
    patch: Record<string, unknown>,
    opts?: { resourceVersion?: string; subresource?: 'status'; dryRun?: boolean },
  ): Promise<T>;
  replace<T extends KubeObject>(kind: KindName, ref: ObjectRef, obj: T): Promise<T>;
  delete(
    kind: KindName,
    ref: ObjectRef,
    opts?: { resourceVersion?: string; uid?: string; propagation?: 'Background' | 'Foreground'; dryRun?: boolean },
  ): Promise<void>;

  /**
   * Resolve with the first non-undefined value of `test`, evaluated now and on every informer event for that
   * object (never by polling). Rejects with Unavailable on timeout or when `signal` aborts.
   */
  waitFor<T extends KubeObject, R>(
    kind: CachedKind,
    ref: ObjectRef,
    test: (obj: T | undefined) => R | undefined,
    opts: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<R>;

  /** Every change of a cached kind on every hub. Returns an unsubscribe function. */
  onChange<T extends KubeObject>(
    kind: CachedKind,
    listener: (hub: string, type: ChangeType, obj: T) => void,
  ): () => void;

  /**
   * Record a Kubernetes Event on the object (Hive itself emits none). Transient failures are retried a few times
   * with backoff; never throws (a lost Event must not fail the action it records): a final failure is logged.
   */
  recordEvent(kind: KindName, ref: ObjectRef, event: KubeEvent): Promise<void>;
}

/** The log a use case or job handler writes to (a pino child in production): structured fields, short message. */
export interface ServiceLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** The ports every use case gets; each service's deps.ts adds its own settings. */
export interface ServiceDeps {
  store: HiveStore;
  queue: JobQueue;
  clock: Clock;
  log: ServiceLog;
}

/** Hub and namespace holding Beekeeper's own resources (HibernationSchedules, ClusterOverrides, ExpiryPolicies...). */
export interface StateLocation {
  stateHub: string;
  stateNamespace: string;
}
