// The api role's HTTP edge: sign-in, the Idempotency-Key index and the server with every feature's routes. The
// server (Swagger UI, bull-board, OpenAPI) and sign-in (jose, OIDC) are imported here, on demand, and this module
// imports them as types only: they are RSS the worker and scheduler would carry for nothing (bench/memory.ts).
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import type { ServerDeps } from '../http/server.js';
import type { KubeGateway } from '../kube/gateway.js';
import { createMarkIndex } from '../services/idempotency/mark-index.js';
import type { CachedKind, KubeObject } from '../services/ports.js';
import { durableKeys } from './durable-keys.js';
import type { Defer } from './closers.js';
import type { Feature, Replayer } from './features.js';

export type ApiEdgeDeps = Omit<ServerDeps, 'routes' | 'authenticators' | 'durableKeys' | 'clock' | 'store'> & {
  store: KubeGateway;
  clock: Clock;
  features: readonly Feature[];
  defer: Defer;
};

export async function buildApiEdge({ features, defer, ...deps }: ApiEdgeDeps): Promise<FastifyInstance> {
  const { config, log, clock, store } = deps;
  const [{ buildServer }, { createSignIn }] = await Promise.all([
    import('../http/server.js'),
    import('../auth/sign-in.js'),
  ]);
  const signIn = createSignIn({
    auth: config.auth,
    log: log.child({ component: 'sign-in' }),
    now: () => clock.now(),
    reviewToken: (hub, token, audiences) => store.reviewToken(hub, token, audiences),
    readSecret: async (ref) => (await store.get<KubeObject & { data?: Record<string, string> }>('Secret', ref))?.data,
  });
  defer('sign-in', async () => signIn.close());
  await signIn.ready;
  const replays = Object.assign({}, ...features.map((f) => f.replays ?? {})) as Partial<Record<CachedKind, Replayer>>;
  const marks = createMarkIndex(store, Object.keys(replays) as CachedKind[]);
  defer('idempotency index', async () => marks.close());
  const server = await buildServer({
    ...deps,
    durableKeys: durableKeys(marks, replays),
    authenticators: signIn.authenticators,
    routes: features.flatMap((f) => f.routes ?? []),
  });
  defer('http', () => server.close());
  return server;
}
