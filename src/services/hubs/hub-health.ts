// Each hub's reachability as this process last saw it, with when it became so and the last error: filled by the
// periodic health refresh (src/system/health-refresher.ts), read by GET /v1/hubs, /readyz's body and the
// beekeeper_hub_reachable gauge, so none of them sends a request to a hub.
import type { Clock, HiveStore, HubStatus } from '../ports.js';

export interface HubHealth extends HubStatus {
  /** When this process first saw the hub in its current reachability (its start, if it has never changed). */
  since: string;
  /** When the hub was last probed. */
  checkedAt: string;
  /** The most recent reason it was unreachable, kept after it recovers (with when it was seen). */
  lastError?: string;
  lastErrorAt?: string;
}

export interface HubHealthTracker {
  /** Probes every hub once (one request each) and records what changed. */
  refresh(): Promise<HubHealth[]>;
  /** The last refresh's answer, with the informer caches as they are now; empty before the first refresh. */
  current(): HubHealth[];
}

export function createHubHealth(deps: {
  store: Pick<HiveStore, 'hubStatus' | 'hubCaches'>;
  clock: Clock;
}): HubHealthTracker {
  const known = new Map<string, HubHealth>();
  const iso = () => new Date(deps.clock.now()).toISOString();
  let running: Promise<HubHealth[]> | undefined;

  const probe = async (): Promise<HubHealth[]> => {
    const statuses = await deps.store.hubStatus();
    const at = iso();
    // A hub taken out of the configuration (hub kubeconfigs reloaded) is forgotten.
    for (const name of known.keys()) if (!statuses.some((s) => s.name === name)) known.delete(name);
    for (const status of statuses) {
      const before = known.get(status.name);
      const changed = !before || before.reachable !== status.reachable;
      const failed = status.reachable ? undefined : (status.message ?? 'unreachable');
      known.set(status.name, {
        ...status,
        since: changed ? at : before.since,
        checkedAt: at,
        ...(failed
          ? { lastError: failed, lastErrorAt: at }
          : before?.lastError
            ? { lastError: before.lastError, lastErrorAt: before.lastErrorAt! }
            : {}),
      });
    }
    return [...known.values()];
  };

  return {
    // Concurrent callers share one probe.
    refresh() {
      running ??= probe().finally(() => {
        running = undefined;
      });
      return running;
    },
    current() {
      const caches = new Map(deps.store.hubCaches().map((c) => [c.name, c]));
      return [...known.values()].map((h) => {
        const cache = caches.get(h.name);
        if (!cache) return h;
        // Caches and credentials as they are now (a reload between probes shows at once).
        const { credentialsLoadedAt: _loaded, credentialsProblem: _problem, ...probed } = h;
        return { ...probed, ...cache };
      });
    },
  };
}
