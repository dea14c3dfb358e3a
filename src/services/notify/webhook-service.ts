// Managing WebhookEndpoints through the API. The URL and the HMAC key are both credentials (a Slack webhook's
// path is its token), so both go into the endpoint's Secret in Beekeeper's namespace (`webhook-<name>`, keys
// `url` and `hmac`); the WebhookEndpoint holds only the redacted URL, and neither is returned, logged or put in a
// job. The URL must not reach a refused address range (address-policy.ts): checked here on what its host is or
// resolves to now, and again at each delivery.
import { Conflict, Invalid } from '../../hive/errors.js';
import { BEEKEEPER_API_VERSION } from '../../hive/resources/crd.js';
import type { WebhookRequest, WebhookView } from '../../hive/resources/webhook-endpoint.js';
import type { HiveStore, KubeObject } from '../ports.js';
import { checkName } from '../schedules/schedule-resource.js';
import { createAddressPolicy, type AddressPolicy } from './address-policy.js';
import type { WebhookEndpoint } from './webhook-endpoint.js';
import { redactUrl, urlProblem } from './webhook-url.js';
import type { Caller } from '../../auth/caller.js';
import {
  creationTeam,
  notFound,
  ownerLabels,
  ownerTeam,
  replacementTeam,
  requireRole,
  sees,
  visibleOr,
  OWNER_TEAM_LABEL,
} from '../team-scope.js';

export type { WebhookView };

type Secret = KubeObject & { data?: Record<string, string> };

export function createWebhookService(deps: {
  store: HiveStore;
  stateHub: string;
  stateNamespace: string;
  log: { info(o: object, m?: string): void };
  /** Where webhooks may post; absent: public addresses only. */
  webhookPolicy?: AddressPolicy;
}) {
  const policy = deps.webhookPolicy ?? createAddressPolicy({ allowPrivate: false, allowCidrs: [] });
  const ref = (name: string) => ({ hub: deps.stateHub, namespace: deps.stateNamespace, name });
  const view = (e: WebhookEndpoint): WebhookView => ({
    name: e.metadata.name,
    ...(ownerTeam(e) ? { team: ownerTeam(e) } : {}),
    // Redacted even when applied with kubectl as a plain spec.url: the API never shows more.
    url: e.spec.url ? redactUrl(e.spec.url) : '',
    format: e.spec.format ?? 'generic',
    signed: Boolean(e.spec.secretRef),
    disabled: Boolean(e.spec.disabled),
    ...(e.status?.lastDelivery ? { lastDelivery: e.status.lastDelivery } : {}),
  });
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  /** The key of a Standard Webhooks secret, `whsec_<base64 of 24 to 64 bytes>`; the reason never quotes it. */
  const signingKey = (secret: string): Buffer => {
    const m = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret);
    const key = m ? Buffer.from(m[1]!, 'base64') : undefined;
    if (key && key.length >= 24 && key.length <= 64) return key;
    const reason = 'must be whsec_ followed by 24 to 64 random bytes in base64 (e.g. whsec_$(openssl rand -base64 32))';
    throw new Invalid(`secret: ${reason}`, [{ field: 'secret', reason }]);
  };
  return {
    /** The endpoints the caller sees: its teams' (platform admins: all). */
    list: (caller: Caller): WebhookView[] =>
      deps.store
        .cachedList<WebhookEndpoint>('WebhookEndpoint', { hub: deps.stateHub, namespace: deps.stateNamespace })
        .filter((e) => sees(caller, ownerTeam(e.object)))
        .map((e) => view(e.object))
        .sort((a, b) => a.name.localeCompare(b.name)),

    async get(name: string, caller: Caller): Promise<WebhookView> {
      checkName(name);
      const e = await deps.store.get<WebhookEndpoint>('WebhookEndpoint', ref(name));
      return view(visibleOr(caller, e ?? undefined, notFound(`webhook ${name}`)));
    },

    /**
     * Creates (owned by `req.team`, or the caller's one team where they are admin) or replaces (admin in its team;
     * only a platform admin may move it to another team). A team's endpoint hears only its team's warnings.
     */
    async put(name: string, req: WebhookRequest, caller: Caller): Promise<WebhookView> {
      checkName(name);
      const found = await deps.store.get<WebhookEndpoint>('WebhookEndpoint', ref(name));
      let team: string | undefined;
      if (found) {
        // Names are shared by every team (one namespace): another team's endpoint answers as taken, nothing more.
        if (!sees(caller, ownerTeam(found)))
          throw new Conflict(`the name ${name} is taken: choose another name for your webhook`);
        requireRole(caller, ownerTeam(found), 'admin', 'replacing a webhook');
        team = replacementTeam(caller, ownerTeam(found), req.team);
      } else team = creationTeam(caller, req.team, 'admin', 'creating a webhook');
      // The reason never quotes the URL: it may be the credential.
      const problem = urlProblem(req.url);
      if (problem) throw new Invalid(`url: ${problem}`, [{ field: 'url', reason: problem }]);
      const range = await policy.checkHost(new URL(req.url).hostname, { resolve: true });
      if (range) {
        const article = /^[aeiou]/.test(range) ? 'an' : 'a';
        const reason = `its host is or resolves to ${article} ${range} address, where webhooks may not post (docs/webhooks.md)`;
        throw new Invalid(`url: ${reason}`, [{ field: 'url', reason }]);
      }
      if (req.format === 'slack' && req.secret)
        throw new Invalid('secret: Slack webhooks are not signed', [
          { field: 'secret', reason: 'Slack-format endpoints are not signed; omit secret' },
        ]);
      const key = req.secret === undefined ? undefined : signingKey(req.secret);
      const secretName = `webhook-${name}`;
      const previous = await deps.store.get<WebhookEndpoint>('WebhookEndpoint', ref(name));
      const existing = await deps.store.get<Secret>('Secret', ref(secretName));
      const keepKey = req.secret === undefined && req.format !== 'slack' ? previous?.spec.secretRef : undefined;
      const data: Record<string, string> = { url: b64(req.url) };
      if (key) data.hmac = key.toString('base64');
      else if (keepKey?.name === secretName && existing?.data?.[keepKey.key ?? 'hmac'])
        data[keepKey.key ?? 'hmac'] = existing.data[keepKey.key ?? 'hmac']!;
      const secret: Secret = {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: secretName,
          namespace: deps.stateNamespace,
          labels: { 'app.kubernetes.io/managed-by': 'beekeeper' },
        },
        type: 'Opaque',
        data,
      };
      if (existing)
        await deps.store.replace('Secret', ref(secretName), {
          ...secret,
          metadata: { ...secret.metadata, resourceVersion: existing.metadata.resourceVersion },
        });
      else await deps.store.create('Secret', deps.stateHub, secret);

      const spec: WebhookEndpoint['spec'] = {
        url: redactUrl(req.url),
        urlSecretRef: { name: secretName, key: 'url' },
        format: req.format ?? 'generic',
        disabled: Boolean(req.disabled),
        ...(req.secret !== undefined
          ? { secretRef: { name: secretName, key: 'hmac' } }
          : keepKey
            ? { secretRef: keepKey }
            : {}),
      };
      const { [OWNER_TEAM_LABEL]: _old, ...labels } = previous?.metadata.labels ?? {};
      const saved = previous
        ? await deps.store.replace<WebhookEndpoint>('WebhookEndpoint', ref(name), {
            ...previous,
            metadata: { ...previous.metadata, labels: { ...labels, ...ownerLabels(team) } },
            spec,
          })
        : await deps.store.create<WebhookEndpoint>('WebhookEndpoint', deps.stateHub, {
            apiVersion: BEEKEEPER_API_VERSION,
            kind: 'WebhookEndpoint',
            metadata: { name, namespace: deps.stateNamespace, ...(team ? { labels: ownerLabels(team) } : {}) },
            spec,
          });
      deps.log.info(
        { webhook: name, team, url: spec.url, format: spec.format, signed: Boolean(spec.secretRef) },
        'webhook endpoint saved',
      );
      return view(saved);
    },

    async remove(name: string, caller: Caller): Promise<void> {
      checkName(name);
      const found = await deps.store.get<WebhookEndpoint>('WebhookEndpoint', ref(name));
      const existing = visibleOr(caller, found ?? undefined, notFound(`webhook ${name}`));
      requireRole(caller, ownerTeam(existing), 'admin', 'deleting a webhook');
      await deps.store.delete('WebhookEndpoint', ref(name));
      const own = `webhook-${name}`;
      if (existing.spec.secretRef?.name === own || existing.spec.urlSecretRef?.name === own)
        await deps.store.delete('Secret', ref(own)).catch(() => undefined);
    },
  };
}
