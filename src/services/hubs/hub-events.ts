// Kubernetes Events when a hub becomes unreachable and when it is back, on the state hub in the state namespace
// (involvedObject: that Namespace, as audit records about no object), so `kubectl get events -n <state namespace>`
// shows them. Only the process holding the scheduler lease writes them (`owner`), so N replicas write one Event,
// not N. At most one Event per hub per `minIntervalMs`: a hub flapping faster than that is announced in the state
// it is in when the interval has passed.
import type { Clock, HiveStore } from '../ports.js';
import type { HubHealth } from './hub-health.js';

export const HUB_UNREACHABLE = 'HubUnreachable';
export const HUB_REACHABLE = 'HubReachable';
/** The error is a hub's own words (an address, a status); cut so an Event stays short. */
const MAX_ERROR = 300;

export interface HubEventDeps {
  store: Pick<HiveStore, 'recordEvent'>;
  clock: Clock;
  stateHub: string;
  stateNamespace: string;
  /** True while this process holds the scheduler lease. */
  owner: () => boolean;
  minIntervalMs?: number;
}

export function createHubEvents(deps: HubEventDeps): { observe(hubs: readonly HubHealth[]): void } {
  const minIntervalMs = deps.minIntervalMs ?? 60_000;
  // What this process last announced per hub, and when. A process that has announced nothing starts from
  // "reachable" for every hub: a hub down when it takes the lease over is announced (again) once. Kept while the
  // lease is lost, so a holder that loses it for a moment and takes it back announces nothing twice.
  const announced = new Map<string, { reachable: boolean; at: number }>();

  const write = (hub: HubHealth) =>
    deps.store.recordEvent(
      'Namespace',
      { hub: deps.stateHub, name: deps.stateNamespace },
      hub.reachable
        ? {
            type: 'Normal',
            reason: HUB_REACHABLE,
            action: 'ProbeHub',
            message: `Hub ${hub.name} is reachable again (since ${hub.since}).`,
            namespace: deps.stateNamespace,
          }
        : {
            type: 'Warning',
            reason: HUB_UNREACHABLE,
            action: 'ProbeHub',
            message: `Hub ${hub.name} is unreachable since ${hub.since}: ${(hub.message ?? 'no answer').slice(0, MAX_ERROR)}`,
            namespace: deps.stateNamespace,
          },
    );

  return {
    observe(hubs) {
      if (!deps.owner()) return;
      const now = deps.clock.now();
      for (const hub of hubs) {
        const last = announced.get(hub.name) ?? { reachable: true, at: -Infinity };
        if (last.reachable === hub.reachable || now - last.at < minIntervalMs) continue;
        announced.set(hub.name, { reachable: hub.reachable, at: now });
        // Not awaited: a write retries for seconds against a struggling state hub, and the refresh that called this
        // must not wait for it. recordEvent logs its own failures and never throws.
        void write(hub);
      }
    },
  };
}
