// Everything Beekeeper holds for one hub: its credentials (reloaded when their files change), its client, its request
// gate (in-flight window, the server's 429s, an optional rate cap), and one informer per cached kind.
import type { Clock } from '../clock.js';
import { Unavailable } from '../hive/errors.js';
import type { CachedKind, ChangeType, KubeObject } from '../services/ports.js';
import type { GatewayLog } from './gateway-log.js';
import { createHubCredentials, type HubCredentials, type ReloadOutcome } from './hub-credentials.js';
import { createKindInformer, type KindInformer } from './kind-informer.js';
import type { HubConnection } from './kubeconfig.js';
import { throttleSeconds } from './map-error.js';
import type { RateLimit } from './rate-limiter.js';
import { createRequestGate, type RequestGate } from './request-gate.js';
import { createRestClient, type RestClient } from './rest-client.js';
import { watchFiles, type FileWatch } from './watch-files.js';

export interface Hub {
  name: string;
  credentials: HubCredentials;
  rest: RestClient;
  gate: RequestGate;
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
  /** The gateway's defaults, where the hub's connection sets none: an optional rate cap and the in-flight window. */
  rateLimit?: RateLimit;
  maxInFlight: number;
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
  const { connection, kinds, namespaceOf, requestTimeoutMs, log, onEvent } = deps;
  const name = connection.name;
  const qps = connection.qps ?? deps.rateLimit?.qps;
  const gate = createRequestGate({
    maxInFlight: connection.maxInFlight ?? deps.maxInFlight,
    // A cap with no burst given lets one second's worth through at once, as client-go's callers usually set it.
    ...(qps !== undefined
      ? { rateLimit: { qps, burst: connection.burst ?? deps.rateLimit?.burst ?? Math.max(1, Math.ceil(qps)) } }
      : {}),
    throttledFor: (err) => throttleSeconds(err),
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
          gate,
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
    gate,
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
