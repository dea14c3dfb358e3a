// Which ClusterDeployment conditions report a problem, as a person means it (REFERENCE.md §2.3, §2.5). Hive's
// polarity (PositivePolarityClusterDeploymentConditions) says which status each type wants, and Hive sorts by it;
// but some types describe a state rather than a health: Hibernating and Ready say where the power state is (False
// is normal for half of a cluster's life: Hibernating=False while it runs, Ready=False while it sleeps), Provisioned
// is False while Hive installs or deprovisions, and Unreachable=True is expected while the machines are not running
// (docs/troubleshooting.md). For those only a failure reason is a problem.
import { CONDITIONS, POSITIVE_POLARITY_CONDITIONS, PROVISIONED_REASONS } from './constants.js';
import type { ClusterDeployment, Condition } from './types.js';

/** Reasons of Hibernating/Ready that say the power change failed (Hive retries them with backoff). */
const POWER_FAILURES = new Set(['FailedToStop', 'FailedToStartMachines']);
const PROVISIONED_FAILURES = new Set<string>([
  PROVISIONED_REASONS.provisionStopped,
  PROVISIONED_REASONS.deprovisionFailed,
]);

export function isProblem(cd: ClusterDeployment, c: Condition): boolean {
  if (c.status === 'Unknown') return false;
  switch (c.type) {
    case CONDITIONS.hibernating:
    case CONDITIONS.ready:
      return c.status === 'False' && POWER_FAILURES.has(c.reason ?? '');
    case CONDITIONS.provisioned:
      return c.status === 'False' && PROVISIONED_FAILURES.has(c.reason ?? '');
    case CONDITIONS.unreachable:
      // Only a cluster Hive reports running should answer.
      return c.status === 'True' && cd.status?.powerState === 'Running';
    default:
      return POSITIVE_POLARITY_CONDITIONS.includes(c.type) ? c.status === 'False' : c.status === 'True';
  }
}
