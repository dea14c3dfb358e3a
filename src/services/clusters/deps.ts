// What the cluster use cases need from the world, all through ports (ARCHITECTURE.md "Shape of the code").
import type { ServiceDeps } from '../ports.js';
import type { QuotaGuard } from '../quotas/quota-guard.js';

export type { ServiceLog } from '../ports.js';

export interface ClusterTimeouts {
  /** How long a hibernate or resume job follows Hive before giving up. Hive itself has no resume timeout. */
  powerMs: number;
  /** How long a create job follows provisioning (a real install takes ~40 minutes). */
  provisionMs: number;
  /** How long a delete job follows deprovision. */
  deprovisionMs: number;
}

export const DEFAULT_TIMEOUTS: ClusterTimeouts = {
  powerMs: 30 * 60_000,
  provisionMs: 120 * 60_000,
  deprovisionMs: 60 * 60_000,
};

export interface ClusterServiceDeps extends ServiceDeps {
  /** Team quotas (src/services/quotas); without it nothing is limited. */
  quotas?: QuotaGuard;
  config?: { clusters?: Partial<ClusterTimeouts> };
  /** Told of every power job's end, e.g. for the `beekeeper_power_transitions_total` metric. */
  onPowerTransition?: (t: {
    hub: string;
    to: 'Hibernating' | 'Running';
    outcome: 'completed' | 'unchanged' | 'failed';
  }) => void;
}

export const timeoutsOf = (deps: Pick<ClusterServiceDeps, 'config'>): ClusterTimeouts => ({
  ...DEFAULT_TIMEOUTS,
  ...deps.config?.clusters,
});

/** Job handlers need no queue. */
export type ClusterJobDeps = Omit<ClusterServiceDeps, 'queue'>;
