// WebhookEndpoint resources (deploy/crds/beekeeper.io_webhookendpoints.yaml).
import type { KubeObject } from '../ports.js';

export interface WebhookEndpoint extends KubeObject {
  spec: {
    /**
     * With `urlSecretRef`: only the redacted form, for display. Without it: the URL Beekeeper posts to, for
     * endpoints whose URL is no secret (applied with kubectl; the API always uses `urlSecretRef`).
     */
    url?: string;
    /** Secret in the state namespace holding the full URL (key defaults to `url`). */
    urlSecretRef?: { name: string; key?: string };
    format?: 'generic' | 'slack';
    /** Secret in the state namespace holding the HMAC key (key defaults to `hmac`). */
    secretRef?: { name: string; key?: string };
    disabled?: boolean;
  };
  status?: { lastDelivery?: { at: string; ok: boolean; statusCode?: number; message?: string } };
}

export const SIGNATURE_HEADER = 'X-Beekeeper-Signature';
export const EVENT_HEADER = 'X-Beekeeper-Event';
export const DELIVERY_HEADER = 'X-Beekeeper-Delivery';
