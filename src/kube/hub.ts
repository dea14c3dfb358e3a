// Everything Beekeeper holds for one hub: its client, its rate limit, and one informer per cached kind.
import type { KubeConfig } from '@kubernetes/client-node';
import { Unavailable } from '../hive/errors.js';
import type { CachedKind, ChangeType, KubeObject } from '../services/ports.js';
import type { GatewayLog } from './gateway-log.js';
import { createKindInformer, type KindInformer } from './kind-informer.js';
import { loadKubeConfig, type HubConnection } from './kubeconfig.js';
import { createTokenBucket, type RateLimit, type TokenBucket } from './rate-limiter.js';
import { createRestClient, type RestClient } from './rest-client.js';

export interface Hub {
  name: string;
  /** Set when the hub's kubeconfig could not be loaded; every call then fails with this message. */
  brokenBecause?: string;
  kc?: KubeConfig;
  rest: RestClient;
  limiter: TokenBucket;
  informers: Map<CachedKind, KindInformer>;
}

export interface HubDeps {
  connection: HubConnection;
  kinds: readonly CachedKind[];
  /** The namespace a kind's informer watches, when not all of them. */
  namespaceOf?: (kind: CachedKind) => string | undefined;
  rateLimit: RateLimit;
  requestTimeoutMs: number;
  log: GatewayLog;
  onEvent: (kind: CachedKind, type: ChangeType, obj: KubeObject) => void;
}

export function createHub({ connection, kinds, namespaceOf, rateLimit, requestTimeoutMs, log, onEvent }: HubDeps): Hub {
  const limiter = createTokenBucket({
    qps: connection.qps ?? rateLimit.qps,
    burst: connection.burst ?? rateLimit.burst,
  });
  let kc: KubeConfig;
  try {
    kc = loadKubeConfig(connection);
  } catch (err) {
    const because = err instanceof Error ? err.message : String(err);
    log.error({ hub: connection.name, err: because }, 'hub kubeconfig unusable');
    const rest: RestClient = {
      request: () => Promise.reject(new Unavailable(`hub ${connection.name} is not usable: ${because}`)),
    };
    return { name: connection.name, brokenBecause: because, rest, limiter, informers: new Map() };
  }
  const rest = createRestClient(kc, { timeoutMs: requestTimeoutMs });
  const informers = new Map<CachedKind, KindInformer>();
  for (const kind of kinds) {
    informers.set(
      kind,
      createKindInformer({
        hub: connection.name,
        kind,
        namespace: namespaceOf?.(kind),
        kc,
        rest,
        limiter,
        log,
        onEvent: (type, obj) => onEvent(kind, type, obj),
      }),
    );
  }
  return { name: connection.name, kc, rest, limiter, informers };
}
