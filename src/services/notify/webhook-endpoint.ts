// WebhookEndpoint resources (declared in hive/resources/webhook-endpoint.ts).
import type { WebhookEndpointSpec, WebhookEndpointStatus } from '../../hive/resources/webhook-endpoint.js';
import type { KubeObject } from '../ports.js';

/**
 * `url`: with `urlSecretRef` only the redacted form, for display; without it the URL Beekeeper posts to, for
 * endpoints whose URL is no secret (applied with kubectl; the API always uses `urlSecretRef`).
 */
export interface WebhookEndpoint extends KubeObject {
  spec: WebhookEndpointSpec;
  status?: WebhookEndpointStatus;
}

export const SIGNATURE_HEADER = 'X-Beekeeper-Signature';
export const EVENT_HEADER = 'X-Beekeeper-Event';
export const DELIVERY_HEADER = 'X-Beekeeper-Delivery';
