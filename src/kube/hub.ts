// Everything Beekeeper holds for one hub: its credentials (reloaded when their files change), its client, its rate
// limit, and one informer per cached kind.
import type { Clock } from '../clock.js';
import { Unavailable } from '../hive/errors.js';
import type { CachedKind, ChangeType, KubeObject } from '../services/ports.js';
import type { GatewayLog } from './gateway-log.js';
import { createHubCredentials, type HubCredentials, type ReloadOutcome } from './hub-credentials.js';
import { createKindInformer, type KindInformer } from './kind-informer.js';
import type { HubConnection } from './kubeconfig.js';
import { createTokenBucket, type RateLimit, type TokenBucket } from './rate-limiter.js';
import { createRestClient, type RestClient } from './rest-client.js';
import { watchFiles, type FileWatch } from './watch-files.js';

export interface Hub {
  name: string;
  credentials: HubCredentials;
  rest: RestClient;
  limiter: TokenBucket;
  /** Empty while the hub's credentials have never loaded. */
  informers: Map<CachedKind, KindInformer>;
  /** Starts the informers (once credentials have loaded) and the watch on the credential files. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface HubDeps {
  connection: HubConnection;
  kinds: readonly CachedKind[];
  /** The namespace a kind's informer watches, when not all of them. */
  namespaceOf?: (kind: CachedKind) => string | undefined;
  rateLimit: RateLimit;
  requestTimeoutMs: number;
  /** How often the credential files are read again besides their directory's change events. */
  credentialsPollMs: number;
  clock: Clock;
  log: GatewayLog;
  onEvent: (kind: CachedKind, type: ChangeType, obj: KubeObject) => void;
  /** A change of the credential files that was loaded (`reloaded`) or refused (`rejected`). */
  onReload?: (outcome: ReloadOutcome) => void;
}

export function createHub(deps: HubDeps): Hub {
  const { connection, kinds, namespaceOf, rateLimit, requestTimeoutMs, log, onEvent } = deps;
  const name = connection.name;
  const limiter = createTokenBucket({
    qps: connection.qps ?? rateLimit.qps,
    burst: connection.burst ?? rateLimit.burst,
  });
  const informers = new Map<CachedKind, KindInformer>();
  let started = false;
  let files: FileWatch | undefined;
  const credentials = createHubCredentials(connection, {
    clock: deps.clock,
    log,
    onReload(outcome) {
      deps.onReload?.(outcome);
      if (outcome !== 'reloaded') return;
      if (informers.size > 0) for (const inf of informers.values()) inf.reconnect();
      else if (started) void startInformers();
    },
  });
  if (!credentials.current()) log.error({ hub: name, err: credentials.problem() }, 'hub kubeconfig unusable');
  const kubeConfig = () => {
    const kc = credentials.current();
    if (!kc) throw new Unavailable(`hub ${name} is not usable: ${credentials.problem()}`);
    return kc;
  };
  const rest = createRestClient(kubeConfig, { timeoutMs: requestTimeoutMs });
  // Informers need a KubeConfig: a hub whose kubeconfig is broken from the start gets them when it first loads.
  const startInformers = async () => {
    if (!credentials.current() || informers.size > 0) return;
    for (const kind of kinds) {
      informers.set(
        kind,
        createKindInformer({
          hub: name,
          kind,
          namespace: namespaceOf?.(kind),
          kubeConfig,
          rest,
          limiter,
          log,
          onEvent: (type, obj) => onEvent(kind, type, obj),
        }),
      );
    }
    await Promise.allSettled([...informers.values()].map((inf) => inf.start()));
  };

  return {
    name,
    credentials,
    rest,
    limiter,
    informers,
    async start() {
      started = true;
      files ??= watchFiles(credentials.files, () => void credentials.check(), {
        intervalMs: deps.credentialsPollMs,
        log,
        hub: name,
      });
      await startInformers();
    },
    async stop() {
      started = false;
      files?.close();
      await Promise.all([...informers.values()].map((inf) => inf.stop()));
    },
  };
}
