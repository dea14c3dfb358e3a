// Managing WebhookEndpoints through the API. The HMAC key, when given, goes straight into a Secret in
// Beekeeper's namespace (`webhook-<name>`); it is never returned, logged or put in a job.
import { Invalid, NotFound } from '../../hive/errors.js';
import type { HiveStore, KubeObject } from '../ports.js';
import { checkName } from '../schedules/schedule-resource.js';
import type { WebhookEndpoint } from './webhook-endpoint.js';

export interface WebhookRequest {
  url: string;
  format?: 'generic' | 'slack';
  /** The HMAC key; stored in a Secret, never echoed. */
  secret?: string;
  disabled?: boolean;
}

export interface WebhookView {
  name: string;
  url: string;
  format: 'generic' | 'slack';
  signed: boolean;
  disabled: boolean;
  lastDelivery?: NonNullable<WebhookEndpoint['status']>['lastDelivery'];
}

export function createWebhookService(deps: { store: HiveStore; stateHub: string; stateNamespace: string; log: { info(o: object, m?: string): void } }) {
  const ref = (name: string) => ({ hub: deps.stateHub, namespace: deps.stateNamespace, name });
  const view = (e: WebhookEndpoint): WebhookView => ({
    name: e.metadata.name,
    url: e.spec.url,
    format: e.spec.format ?? 'generic',
    signed: Boolean(e.spec.secretRef),
    disabled: Boolean(e.spec.disabled),
    ...(e.status?.lastDelivery ? { lastDelivery: e.status.lastDelivery } : {}),
  });
  return {
    list: (): WebhookView[] =>
      deps.store
        .cachedList<WebhookEndpoint>('WebhookEndpoint', { hub: deps.stateHub, namespace: deps.stateNamespace })
        .map((e) => view(e.object))
        .sort((a, b) => a.name.localeCompare(b.name)),

    async put(name: string, req: WebhookRequest): Promise<WebhookView> {
      checkName(name);
      let url: URL | undefined;
      try {
        url = new URL(req.url);
      } catch {
        url = undefined;
      }
      if (!url || !['http:', 'https:'].includes(url.protocol)) throw new Invalid('url: must be an http(s) URL', [{ field: 'url', reason: 'must be an http(s) URL' }]);
      if (req.format === 'slack' && req.secret) throw new Invalid('secret: Slack webhooks are not signed', [{ field: 'secret', reason: 'Slack-format endpoints are not signed; omit secret' }]);
      const secretName = `webhook-${name}`;
      if (req.secret !== undefined) {
        const secret: KubeObject = {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: secretName, namespace: deps.stateNamespace, labels: { 'app.kubernetes.io/managed-by': 'beekeeper' } },
          type: 'Opaque',
          data: { hmac: Buffer.from(req.secret).toString('base64') },
        };
        const existing = await deps.store.get<KubeObject>('Secret', ref(secretName));
        if (existing) await deps.store.replace('Secret', ref(secretName), { ...secret, metadata: { ...secret.metadata, resourceVersion: existing.metadata.resourceVersion } });
        else await deps.store.create('Secret', deps.stateHub, secret);
      }
      const previous = await deps.store.get<WebhookEndpoint>('WebhookEndpoint', ref(name));
      const keepSecret = req.secret === undefined && previous?.spec.secretRef && req.format !== 'slack';
      const spec: WebhookEndpoint['spec'] = {
        url: req.url,
        format: req.format ?? 'generic',
        disabled: Boolean(req.disabled),
        ...(req.secret !== undefined ? { secretRef: { name: secretName, key: 'hmac' } } : keepSecret ? { secretRef: previous.spec.secretRef } : {}),
      };
      const saved = previous
        ? await deps.store.replace<WebhookEndpoint>('WebhookEndpoint', ref(name), { ...previous, spec })
        : await deps.store.create<WebhookEndpoint>('WebhookEndpoint', deps.stateHub, { apiVersion: 'beekeeper.io/v1alpha1', kind: 'WebhookEndpoint', metadata: { name, namespace: deps.stateNamespace }, spec });
      deps.log.info({ webhook: name, url: url.origin, format: spec.format, signed: Boolean(spec.secretRef) }, 'webhook endpoint saved');
      return view(saved);
    },

    async remove(name: string): Promise<void> {
      checkName(name);
      const existing = await deps.store.get<WebhookEndpoint>('WebhookEndpoint', ref(name));
      if (!existing) throw new NotFound(`webhook ${name} not found`);
      await deps.store.delete('WebhookEndpoint', ref(name));
      if (existing.spec.secretRef?.name === `webhook-${name}`) await deps.store.delete('Secret', ref(`webhook-${name}`)).catch(() => undefined);
    },
  };
}
