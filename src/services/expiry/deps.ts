// What the expiry use cases need: the ports, and where Beekeeper keeps its own resources (ExpiryPolicies,
// WebhookEndpoints).
import type { ServiceDeps, StateLocation } from '../ports.js';
import type { TeamScope } from '../team-scope.js';

export type { ServiceLog } from '../ports.js';

export interface ExpiryServiceDeps extends ServiceDeps, StateLocation, TeamScope {
  webhookTimeoutMs?: number;
}
