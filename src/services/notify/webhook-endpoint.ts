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

// Standard Webhooks (https://www.standardwebhooks.com): the notice's id (the same on every retry, for receivers
// to de-duplicate), the send time in seconds, and `v1,<base64 HMAC-SHA256 of id.timestamp.body>` when signed.
export const ID_HEADER = 'webhook-id';
export const TIMESTAMP_HEADER = 'webhook-timestamp';
export const SIGNATURE_HEADER = 'webhook-signature';
export const EVENT_HEADER = 'X-Beekeeper-Event';
