// One Beekeeper (api + worker) with teams and team tokens, listening on a port (Server-Sent Events need a real
// connection), against a simulated hub seeded with a cluster, a pool and a claim in each of two team namespaces
// and in a namespace of no team.
import { randomUUID } from 'node:crypto';
import { createTestClock } from '../../src/clock.js';
import { loadConfig, withEmbeddedHub, type Config } from '../../src/config.js';
import type { Role } from '../../src/auth/caller.js';
import { sha256Hex } from '../../src/config/auth.js';
import { createLogger } from '../../src/logger.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { createSystem, type System } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';

export const HUB = 'east';
/** Namespaces: one per team (from the configuration), one labelled for team-a, one of no team. */
export const NS = { a: 'team-a-ns', b: 'team-b-ns', labelled: 'labelled-a-ns', none: 'no-team-ns' } as const;
export type Place = 'a' | 'b' | 'none';
export const TEAM_OF: Record<Place, string | undefined> = { a: 'team-a', b: 'team-b', none: undefined };

export type CallerName = 'aViewer' | 'aOperator' | 'aAdmin' | 'bMember' | 'platform' | 'anonymous';
export const CALLERS: readonly CallerName[] = ['aViewer', 'aOperator', 'aAdmin', 'bMember', 'platform', 'anonymous'];

/** config auth.tokens entries {name, token, team, role}; `bMember` is an operator of team-b and nothing else. */
export const TOKENS: Record<
  Exclude<CallerName, 'anonymous'>,
  { name: string; token: string; team?: string; role?: string }
> = {
  aViewer: { name: 'a-viewer', token: 'tok-a-viewer-0123456789abcdef', team: 'team-a', role: 'viewer' },
  aOperator: { name: 'a-operator', token: 'tok-a-operator-0123456789abcdef', team: 'team-a', role: 'operator' },
  aAdmin: { name: 'a-admin', token: 'tok-a-admin-0123456789abcdef', team: 'team-a', role: 'admin' },
  bMember: { name: 'b-member', token: 'tok-b-member-0123456789abcdef', team: 'team-b', role: 'operator' },
  platform: { name: 'platform', token: 'tok-platform-0123456789abcdef', role: 'platform-admin' },
};

/** The role a caller holds where an object lives ('platform': everywhere), as the configuration above says. */
export function roleAt(caller: CallerName, place: Place): Role | 'platform' | undefined {
  if (caller === 'platform') return 'platform';
  if (caller === 'anonymous') return undefined;
  const t = TOKENS[caller];
  return t.team === TEAM_OF[place] ? (t.role as Role) : undefined;
}

/** Namespaces a caller sees in lists. */
export function visibleNamespaces(caller: CallerName): string[] {
  if (caller === 'platform') return Object.values(NS);
  if (caller === 'anonymous') return [];
  return TOKENS[caller].team === 'team-a' ? [NS.a, NS.labelled] : [NS.b];
}

export const TEAM_A_GROUP = 'idp-team-a-operators';

export function authConfig(base: Config): Config {
  return {
    ...base,
    auth: {
      ...base.auth,
      open: false,
      tokens: Object.values(TOKENS).map(({ token, ...t }) => ({
        ...t,
        tokenSha256: sha256Hex(token),
      })) as Config['auth']['tokens'],
    },
    teams: [
      {
        name: 'team-a',
        namespaces: [`${HUB}/${NS.a}`],
        members: [
          { group: TEAM_A_GROUP, role: 'operator' },
          { group: 'idp-team-a-readers', role: 'viewer' },
        ],
      },
      { name: 'team-b', namespaces: [NS.b] },
    ],
  };
}

export interface AuthBed {
  sim: Simulator;
  system: System;
  url: string;
  close(): Promise<void>;
}

export async function startAuthBed(): Promise<AuthBed> {
  const clock = createTestClock();
  const sim = await startSimulator({ hubNames: [HUB], speed: 1000, clock, deleteProtection: false });
  const base = loadConfig({
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    BEEKEEPER_REDIS_PREFIX: `{bk-authz-${randomUUID().slice(0, 8)}}`,
    // Every request of the table leaves an audit Event: the default 20 requests/s would pace the test, not Beekeeper.
    BEEKEEPER_KUBE_QPS: '1000',
    BEEKEEPER_KUBE_BURST: '2000',
  });
  const config = authConfig(withEmbeddedHub(base, { name: HUB, kubeconfigData: sim.kubeconfigYaml() }));
  const log = createLogger({ level: 'silent' });
  await prepareEmbeddedHub({ hub: config.hubs[0]!, namespace: config.stateNamespace, clock, log });
  const system = await createSystem({ config, log, clock, roles: ['api', 'worker'] });
  await system.store.create('ClusterImageSet', HUB, {
    metadata: { name: 'openshift-v4.16.3' },
    spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64' },
  });
  const url = await system.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    sim,
    system,
    url,
    async close() {
      await system.close();
      await sim.close();
    },
  };
}

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** A Namespace (with the team label when given), credentials, an installed protected cluster, a pool, a claim. */
export async function seedNamespace(bed: AuthBed, namespace: string, teamLabel?: string): Promise<void> {
  const { store } = bed.system;
  await store.create('Namespace', HUB, {
    metadata: { name: namespace, ...(teamLabel ? { labels: { 'beekeeper.io/team': teamLabel } } : {}) },
  });
  await store.create('Secret', HUB, {
    metadata: { name: 'aws-creds', namespace },
    data: { aws_access_key_id: b64('x'), aws_secret_access_key: b64('y') },
  });
  await store.create('Secret', HUB, {
    metadata: { name: 'c1-kubeconfig', namespace },
    data: { kubeconfig: b64('apiVersion: v1\nkind: Config\n') },
  });
  await store.create('ClusterDeployment', HUB, {
    apiVersion: 'hive.openshift.io/v1',
    kind: 'ClusterDeployment',
    metadata: {
      name: 'c1',
      namespace,
      // Protected: a DELETE that passes the access check is refused (409) instead of deleting the seed.
      annotations: { 'hive.openshift.io/fake-cluster': 'true', 'hive.openshift.io/protected-delete': 'true' },
    },
    spec: {
      clusterName: 'c1',
      baseDomain: 'example.com',
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
      installed: true,
      clusterMetadata: {
        clusterID: 'c1-id',
        infraID: 'c1-infra',
        adminKubeconfigSecretRef: { name: 'c1-kubeconfig' },
      },
    },
  });
  await seedPool(bed, namespace, 'p1');
  await seedClaim(bed, namespace, 'k1');
}

/** Resolves once the informer cache holds the object. */
async function inCache(bed: AuthBed, kind: 'ClusterPool' | 'ClusterClaim', namespace: string, name: string) {
  await bed.system.store.waitFor(kind, { hub: HUB, namespace, name }, (o) => (o ? true : undefined), {
    timeoutMs: 10_000,
  });
}

/** A pool of size 0 (it provisions nothing). */
export async function seedPool(bed: AuthBed, namespace: string, name: string): Promise<void> {
  await bed.system.store.create('ClusterPool', HUB, {
    apiVersion: 'hive.openshift.io/v1',
    kind: 'ClusterPool',
    metadata: { name, namespace },
    spec: {
      size: 0,
      baseDomain: 'example.com',
      imageSetRef: { name: 'openshift-v4.16.3' },
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
    },
  });
  await inCache(bed, 'ClusterPool', namespace, name);
}

/** A claim on pool p1 (pending: the pool is empty). */
export async function seedClaim(bed: AuthBed, namespace: string, name: string): Promise<void> {
  await bed.system.store.create('ClusterClaim', HUB, {
    apiVersion: 'hive.openshift.io/v1',
    kind: 'ClusterClaim',
    metadata: { name, namespace },
    spec: { clusterPoolName: 'p1' },
  });
  await inCache(bed, 'ClusterClaim', namespace, name);
}

/** Resolves once the informer cache holds every seeded object. */
export async function cached(bed: AuthBed, namespaces: readonly string[]): Promise<void> {
  const { store } = bed.system;
  for (const namespace of namespaces) {
    const ref = { hub: HUB, namespace };
    const wait = (kind: 'ClusterDeployment' | 'ClusterPool' | 'ClusterClaim', name: string) =>
      store.waitFor(kind, { ...ref, name }, (o) => (o ? true : undefined), { timeoutMs: 30_000 });
    await Promise.all([wait('ClusterDeployment', 'c1'), wait('ClusterPool', 'p1'), wait('ClusterClaim', 'k1')]);
    await store.waitFor('Namespace', { hub: HUB, name: namespace }, (o) => (o ? true : undefined), {
      timeoutMs: 30_000,
    });
  }
}

export interface Answer {
  status: number;
  body: unknown;
  contentType: string;
}

/**
 * One request as `caller`. A Server-Sent Events stream that opens (200) is closed at once: its status is the
 * answer.
 */
export async function call(
  bed: AuthBed,
  caller: CallerName,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (caller !== 'anonymous') headers.authorization = `Bearer ${TOKENS[caller].token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const abort = new AbortController();
  const res = await fetch(`${bed.url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: abort.signal,
  });
  const contentType = res.headers.get('content-type') ?? '';
  if (contentType.startsWith('text/event-stream')) {
    abort.abort();
    return { status: res.status, body: undefined, contentType };
  }
  const text = await res.text();
  let parsed: unknown = text;
  if (contentType.includes('json')) parsed = text ? JSON.parse(text) : undefined;
  return { status: res.status, body: parsed, contentType };
}
