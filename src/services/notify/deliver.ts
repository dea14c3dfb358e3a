// Delivering one notice to one endpoint. Generic JSON is signed the Standard Webhooks way (webhook-endpoint.ts)
// with a key from a Secret in Beekeeper's namespace; the key never leaves that Secret (not in logs, payloads or
// errors). The URL is a credential too (webhook-url.ts): it is read from the endpoint's Secret when `urlSecretRef`
// is set. The connection goes only to addresses the policy allows, checked after DNS resolution and pinned
// (address-policy.ts); redirects are not followed. What went wrong at the network level (codes, addresses) goes to
// the log; callers see one of a few fixed reasons (FAILURE). Receiver errors that may pass (5xx, 408, 429, network)
// are Unavailable so the job retries with backoff; other answers are Invalid: give up.
import { createHmac } from 'node:crypto';
import { Agent, fetch, type Response } from 'undici';
import { Invalid, Unavailable } from '../../hive/errors.js';
import type { HiveStore, KubeObject } from '../ports.js';
import { AddressRefused, createAddressPolicy, pinnedLookup, type AddressPolicy } from './address-policy.js';
import { genericBody, slackBody, type Notice } from './notice.js';
import {
  EVENT_HEADER,
  ID_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  type WebhookEndpoint,
} from './webhook-endpoint.js';
import { redactUrl, requestTarget, urlProblem } from './webhook-url.js';

export interface DeliverDeps {
  store: HiveStore;
  stateHub: string;
  stateNamespace: string;
  timeoutMs?: number;
  /** Where webhooks may post; absent: public addresses only. */
  webhookPolicy?: AddressPolicy;
  /** Wall-clock milliseconds for webhook-timestamp (the receiver compares it with its own clock). */
  now?: () => number;
  log?: { warn(o: object, m?: string): void };
}

/** What a caller is told about a failed delivery: these, or `answered <status>`. */
export const FAILURE = {
  refused: 'address not allowed',
  dns: 'DNS lookup failed',
  connRefused: 'connection refused',
  conn: 'connection failed',
  tls: 'TLS error',
  timeout: 'timed out',
  redirect: 'redirect not followed',
} as const;

const STRICT = createAddressPolicy({ allowPrivate: false, allowCidrs: [] });

/** Standard Webhooks: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. */
export function sign(key: Buffer, id: string, timestampSeconds: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
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

const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_OSSL)/;

/** The low-level code of a failed fetch (for the log) and the fixed reason a caller sees. */
function failure(err: unknown): { code: string; reason: string; range?: string } {
  let cause: unknown = err;
  // undici wraps the socket's error (TypeError: fetch failed → cause), sometimes twice.
  while (cause instanceof Error && cause.cause !== undefined && !(cause instanceof AddressRefused)) cause = cause.cause;
  if (cause instanceof AddressRefused) return { code: cause.code, reason: FAILURE.refused, range: cause.range };
  const code =
    typeof (cause as { code?: unknown } | undefined)?.code === 'string'
      ? (cause as { code: string }).code
      : cause instanceof Error
        ? // A short message without a slash cannot quote the URL (undici's "bad port"); otherwise only the name.
          /^[\w .:-]{1,80}$/.test(cause.message)
          ? `${cause.name}: ${cause.message}`
          : cause.name
        : 'unknown';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL') return { code, reason: FAILURE.dns };
  if (code === 'ECONNREFUSED') return { code, reason: FAILURE.connRefused };
  if (TLS_CODE.test(code)) return { code, reason: FAILURE.tls };
  if (/Timeout|Abort|TIMEDOUT/i.test(code)) return { code, reason: FAILURE.timeout };
  return { code, reason: FAILURE.conn };
}

export async function deliver(deps: DeliverDeps, ep: WebhookEndpoint, notice: Notice): Promise<{ statusCode: number }> {
  const name = ep.metadata.name;
  const policy = deps.webhookPolicy ?? STRICT;
  const body = ep.spec.format === 'slack' ? slackBody(notice) : genericBody(notice);
  const timestamp = Math.floor((deps.now ?? Date.now)() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [EVENT_HEADER]: notice.event,
    [ID_HEADER]: notice.id,
    [TIMESTAMP_HEADER]: String(timestamp),
  };
  const key = await signingKey(deps, ep);
  if (key) headers[SIGNATURE_HEADER] = sign(key, notice.id, timestamp, body);
  const full = await endpointUrl(deps, ep);
  const target = requestTarget(full);
  if (target.authorization) headers.authorization = target.authorization;
  const logged = { webhook: name, url: redactUrl(full) };
  const fail = (reason: string, detail: object) => {
    deps.log?.warn({ ...logged, ...detail }, 'webhook delivery failed');
    // A refused address stays refused (until the configuration changes): no retry.
    return reason === FAILURE.refused
      ? new Invalid(`webhook ${name}: ${reason}`)
      : new Unavailable(`webhook ${name}: ${reason}`);
  };

  // An address literal never reaches the lookup below: check it here (a name is checked once resolved).
  const range = await policy.checkHost(new URL(target.url).hostname, { resolve: false });
  if (range) throw fail(FAILURE.refused, { code: 'EADDRREFUSEDBYPOLICY', range });

  let addresses: string[] = [];
  const timeout = deps.timeoutMs ?? 10_000;
  const agent = new Agent({
    connect: { lookup: pinnedLookup(policy, (a) => (addresses = a)), timeout },
  });
  let res: Response;
  try {
    res = await fetch(target.url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      dispatcher: agent,
      signal: AbortSignal.timeout(timeout),
    });
    await res.arrayBuffer().catch(() => undefined);
  } catch (err) {
    const { reason, ...detail } = failure(err);
    throw fail(reason, { ...detail, addresses });
  } finally {
    void agent.close().catch(() => undefined);
  }
  if (res.ok) return { statusCode: res.status };
  if (res.status >= 300 && res.status < 400) {
    deps.log?.warn({ ...logged, status: res.status, addresses }, 'webhook answered a redirect; not followed');
    throw new Invalid(`webhook ${name}: ${FAILURE.redirect} (${res.status})`);
  }
  const msg = `webhook ${name}: answered ${res.status}`;
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
