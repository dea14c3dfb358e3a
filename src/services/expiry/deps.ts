// What the expiry use cases need: the ports, and where Beekeeper keeps its own resources (ExpiryPolicies,
// WebhookEndpoints).
import type { AddressPolicy } from '../notify/address-policy.js';
import type { ServiceDeps, StateLocation } from '../ports.js';
import type { QuotaGuard } from '../quotas/quota-guard.js';
import type { TeamScope } from '../team-scope.js';

export type { ServiceLog } from '../ports.js';

export interface ExpiryServiceDeps extends ServiceDeps, StateLocation, TeamScope {
  webhookTimeoutMs?: number;
  /** Where webhooks may post (src/services/notify/address-policy.ts); absent: public addresses only. */
  webhookPolicy?: AddressPolicy;
  /** Team quotas (src/services/quotas): an extension within maxLifetimeHours; without it nothing is limited. */
  quotas?: QuotaGuard;
}
