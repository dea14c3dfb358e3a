// Beekeeper's own resources (group beekeeper.io), each declared once; scripts/crd-files.ts renders their CRDs.
import type { CrdDefinition } from './crd.js';
import { clusterOverrideCrd } from './cluster-override.js';
import { expiryPolicyCrd } from './expiry-policy.js';
import { hibernationScheduleCrd } from './hibernation-schedule.js';
import { operationCrd } from './operation.js';
import { relocationCrd } from './relocation.js';
import { webhookEndpointCrd } from './webhook-endpoint.js';

export const BEEKEEPER_CRDS: CrdDefinition[] = [
  hibernationScheduleCrd,
  expiryPolicyCrd,
  clusterOverrideCrd,
  webhookEndpointCrd,
  operationCrd,
  relocationCrd,
];
