// Delivering one notice to one endpoint. Generic JSON is signed with HMAC-SHA256 over the exact body bytes
// (`X-Beekeeper-Signature: sha256=<hex>`, the GitHub convention) using a key from a Secret in Beekeeper's
// namespace; the key never leaves that Secret (not in logs, payloads or errors). The URL is a credential too
// (webhook-url.ts): it is read from the endpoint's Secret when `urlSecretRef` is set, and errors name the
// endpoint and the redacted URL only. Receiver errors that may pass (5xx, 408, 429, network) are Unavailable so
// the job retries with backoff; other 4xx are Invalid: give up.
import { createHmac } from 'node:crypto';
import { Invalid, Unavailable } from '../../hive/errors.js';
import type { HiveStore, KubeObject } from '../ports.js';
import { genericBody, slackBody, type Notice } from './notice.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, type WebhookEndpoint } from './webhook-endpoint.js';
import { redactUrl, requestTarget, urlProblem } from './webhook-url.js';

export interface DeliverDeps {
  store: HiveStore;
  stateHub: string;
  stateNamespace: string;
  timeoutMs?: number;
}

export function sign(key: string | Buffer, body: string): string {
  return `sha256=${createHmac('sha256', key).update(body).digest('hex')}`;
}

async function secretValue(
  deps: DeliverDeps,
  ep: WebhookEndpoint,
  ref: { name: string; key?: string },
  defaultKey: string,
): Promise<Buffer> {
  const key = ref.key ?? defaultKey;
  const secret = await deps.store.get<KubeObject & { data?: Record<string, string> }>('Secret', {
    hub: deps.stateHub,
    namespace: deps.stateNamespace,
    name: ref.name,
  });
  const value = secret?.data?.[key];
  if (!value) throw new Invalid(`webhook ${ep.metadata.name}: Secret ${ref.name} has no key ${key}`);
  return Buffer.from(value, 'base64');
}

async function signingKey(deps: DeliverDeps, ep: WebhookEndpoint): Promise<Buffer | undefined> {
  return ep.spec.secretRef ? secretValue(deps, ep, ep.spec.secretRef, 'hmac') : undefined;
}

/** The full URL: from the Secret when referenced (spec.url is then only the redacted form for display). */
async function endpointUrl(deps: DeliverDeps, ep: WebhookEndpoint): Promise<string> {
  const ref = ep.spec.urlSecretRef;
  const url = ref ? (await secretValue(deps, ep, ref, 'url')).toString('utf8').trim() : ep.spec.url;
  const where = ref ? `the URL in Secret ${ref.name}` : 'spec.url';
  if (!url) throw new Invalid(`webhook ${ep.metadata.name}: no URL (set spec.urlSecretRef or spec.url)`);
  const problem = urlProblem(url);
  if (problem) throw new Invalid(`webhook ${ep.metadata.name}: ${where} ${problem}`);
  return url;
}

/** Why a request failed, without fetch's message (undici's may quote the URL): the error code or name only. */
function failureReason(err: unknown): string {
  const cause = err instanceof Error ? (err.cause as { code?: unknown } | undefined) : undefined;
  if (typeof cause?.code === 'string') return cause.code;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'timed out';
  return 'network error';
}

export async function deliver(deps: DeliverDeps, ep: WebhookEndpoint, notice: Notice): Promise<{ statusCode: number }> {
  const body = ep.spec.format === 'slack' ? slackBody(notice) : genericBody(notice);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [EVENT_HEADER]: notice.event,
    [DELIVERY_HEADER]: notice.id,
  };
  const key = await signingKey(deps, ep);
  if (key) headers[SIGNATURE_HEADER] = sign(key, body);
  const full = await endpointUrl(deps, ep);
  const target = requestTarget(full);
  if (target.authorization) headers.authorization = target.authorization;
  const shown = `webhook ${ep.metadata.name} (${redactUrl(full)})`;
  let res: Response;
  try {
    res = await fetch(target.url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(deps.timeoutMs ?? 10_000),
    });
    await res.arrayBuffer().catch(() => undefined);
  } catch (err) {
    throw new Unavailable(`${shown}: POST failed: ${failureReason(err)}`);
  }
  if (res.ok) return { statusCode: res.status };
  const msg = `${shown} answered ${res.status}`;
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
