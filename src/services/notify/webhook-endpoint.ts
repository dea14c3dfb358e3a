// WebhookEndpoint resources (deploy/crds/beekeeper.io_webhookendpoints.yaml).
import type { KubeObject } from '../ports.js';

export interface WebhookEndpoint extends KubeObject {
  spec: {
    url: string;
    format?: 'generic' | 'slack';
    secretRef?: { name: string; key?: string };
    disabled?: boolean;
  };
  status?: { lastDelivery?: { at: string; ok: boolean; statusCode?: number; message?: string } };
}

export const SIGNATURE_HEADER = 'X-Beekeeper-Signature';
export const EVENT_HEADER = 'X-Beekeeper-Event';
export const DELIVERY_HEADER = 'X-Beekeeper-Delivery';
