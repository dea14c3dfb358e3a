// beekeeper_hub_credential_reloads_total: a hub's credential files (kubeconfig from the mounted Secret, in-cluster
// token) changed and were loaded (`success`) or refused, the last good ones kept (`failure`). Every configured hub
// starts at 0 for both outcomes, so an alert on increase() sees the first failure too.
import { Counter, type Registry } from 'prom-client';

export type CredentialReloadOutcome = 'success' | 'failure';

export function createHubCredentialMetrics(
  registry: Registry,
  hubs: readonly string[],
): (hub: string, outcome: CredentialReloadOutcome) => void {
  const reloads = new Counter({
    name: 'beekeeper_hub_credential_reloads_total',
    help: "Changes of a hub's credential files: loaded (success) or refused, the last good ones kept (failure)",
    labelNames: ['hub', 'outcome'] as const,
    registers: [registry],
  });
  for (const hub of hubs) for (const outcome of ['success', 'failure'] as const) reloads.inc({ hub, outcome }, 0);
  return (hub, outcome) => reloads.inc({ hub, outcome });
}
