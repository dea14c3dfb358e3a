// Delivering one notice to one endpoint. Generic JSON is signed with HMAC-SHA256 over the exact body bytes
// (`X-Beekeeper-Signature: sha256=<hex>`, the GitHub convention) using a key from a Secret in Beekeeper's
// namespace; the key never leaves that Secret (not in logs, payloads or errors). Receiver errors that may pass
// (5xx, 408, 429, network) are Unavailable so the job retries with backoff; other 4xx are Invalid: give up.
import { createHmac } from 'node:crypto';
import { Invalid, Unavailable } from '../../hive/errors.js';
import type { HiveStore, KubeObject } from '../ports.js';
import { genericBody, slackBody, type Notice } from './notice.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, type WebhookEndpoint } from './webhook-endpoint.js';

export interface DeliverDeps {
  store: HiveStore;
  stateHub: string;
  stateNamespace: string;
  timeoutMs?: number;
}

export function sign(key: string | Buffer, body: string): string {
  return `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;
}

async function signingKey(deps: DeliverDeps, ep: WebhookEndpoint): Promise<Buffer | undefined> {
  const ref = ep.spec.secretRef;
  if (!ref) return undefined;
  const secret = await deps.store.get<KubeObject & { data?: Record<string, string> }>('Secret', { hub: deps.stateHub, namespace: deps.stateNamespace, name: ref.name });
  const value = secret?.data?.[ref.key ?? 'hmac'];
  if (!value) throw new Invalid(`webhook ${ep.metadata.name}: Secret ${ref.name} has no key ${ref.key ?? 'hmac'}`);
  return Buffer.from(value, 'base64');
}

export async function deliver(deps: DeliverDeps, ep: WebhookEndpoint, notice: Notice): Promise<{ statusCode: number }> {
  const body = ep.spec.format === 'slack' ? slackBody(notice) : genericBody(notice);
  const headers: Record<string, string> = { 'content-type': 'application/json', [EVENT_HEADER]: notice.event, [DELIVERY_HEADER]: notice.id };
  const key = await signingKey(deps, ep);
  if (key) headers[SIGNATURE_HEADER] = sign(key, body);
  let res: Response;
  try {
    res = await fetch(ep.spec.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(deps.timeoutMs ?? 10_000) });
    await res.arrayBuffer().catch(() => undefined);
  } catch (err) {
    throw new Unavailable(`webhook ${ep.metadata.name}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (res.ok) return { statusCode: res.status };
  const msg = `webhook ${ep.metadata.name} answered ${res.status}`;
  if (res.status >= 500 || res.status === 408 || res.status === 429) throw new Unavailable(msg);
  throw new Invalid(msg);
}

export function listEndpoints(deps: Pick<DeliverDeps, 'store' | 'stateHub' | 'stateNamespace'>): WebhookEndpoint[] {
  return deps.store
    .cachedList<WebhookEndpoint>('WebhookEndpoint', { hub: deps.stateHub, namespace: deps.stateNamespace })
    .map((e) => e.object)
    .filter((e) => !e.spec?.disabled)
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}
