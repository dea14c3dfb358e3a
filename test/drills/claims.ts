// The claims scene of the kill and SIGTERM drills: a pool of hibernated clusters (Hive's standby), claims made the
// way a CI job makes them (claim, wait until it runs, fetch the kubeconfig, release), and a watch on the hub that
// records which cluster Hive gave each claim, every time it gave one, so a claim served twice or a cluster given
// to two claims shows even if the end state would hide it.
import { expect } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import { R, type KubeClient } from '../../src/sim/client/index.js';
import { createInstallInputs } from './clusters.js';
import { retryUntilSeen, until, type ApiAnswer, type Drill } from './harness.js';

/** Creates the namespace's install inputs and a pool of `size` clusters kept hibernated; waits until all stand by. */
export async function hibernatedPool(drill: Drill, namespace: string, name: string, size: number): Promise<string> {
  await createInstallInputs(drill.kube(), namespace);
  const pool = await retryUntilSeen(() =>
    drill.api('POST', '/v1/pools', {
      hub: 'east',
      namespace,
      name,
      platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
      baseDomain: 'ci.example.com',
      imageSetName: 'openshift-v4.16.3',
      pullSecretRef: 'pull-secret',
      size,
      runningCount: 0,
    }),
  );
  expect(pool.status, JSON.stringify(pool.body)).toBe(201);
  await until(
    `the pool's ${size} clusters stand by (installed, hibernated)`,
    async () => {
      const res = await drill.api<{ clustersByState?: Record<string, number> }>(
        'GET',
        `/v1/pools/east/${namespace}/${name}`,
      );
      return res.body.clustersByState?.standby === size;
    },
    120_000,
  );
  return `east/${namespace}/${name}`;
}

export interface ClaimAssignments {
  /** The claim's name once per cluster Hive gave it (spec.namespace set, or changed). */
  served(): string[];
  /** Clusters (namespaces) given to more than one claim. */
  givenTwice(): string[];
  stop(): void;
}

export function watchAssignments(kube: KubeClient, namespace: string): ClaimAssignments {
  const current = new Map<string, string>();
  const served: string[] = [];
  const claimsOf = new Map<string, Set<string>>();
  let gone = false;
  const handle = kube.watch(R.clusterClaim, namespace, {
    onEvent(_type, claim) {
      const name = String(claim.metadata.name);
      const cluster = claim.spec?.namespace as string | undefined;
      if (!cluster || current.get(name) === cluster) return;
      current.set(name, cluster);
      served.push(name);
      claimsOf.set(cluster, (claimsOf.get(cluster) ?? new Set()).add(name));
    },
    onGone() {
      gone = true;
    },
  });
  const whole = <T>(value: T): T => {
    if (gone)
      throw new Error(`the watch on ClusterClaims in ${namespace} was compacted away: changes may have been missed`);
    return value;
  };
  return {
    served: () => whole([...served]),
    givenTwice: () => whole([...claimsOf].filter(([, claims]) => claims.size > 1).map(([cluster]) => cluster)),
    stop: () => handle.stop(),
  };
}

export interface CiRun {
  claim: string;
  /** The cluster the claim's view named once it ran. */
  cluster: string;
  /** The release's job id. */
  releaseJob: string;
}

/**
 * A request as a CI job sends it through an api being replaced: a refused or cut connection, no api running, or a
 * 503 from one warming up is tried again for up to 60 s.
 */
export async function apiRetrying<T = any>(
  drill: Drill,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiAnswer<T>> {
  for (const deadline = Date.now() + 60_000; ;) {
    try {
      const res = await drill.api<T>(method, path, body);
      if (res.status !== 503 || Date.now() > deadline) return res;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * One CI job: claim from `pool`, wait until the claim runs, fetch its kubeconfig, run its tests (until `testsRun`
 * settles; none by default), release it.
 */
export async function ciRun(
  drill: Drill,
  pool: string,
  namespace: string,
  claim: string,
  testsRun: Promise<unknown> = Promise.resolve(),
): Promise<CiRun> {
  const path = `/v1/claims/east/${namespace}/${claim}`;
  const created = await apiRetrying(drill, 'POST', '/v1/claims', { pool, name: claim });
  // 409: a first try got through before its connection was cut; the claim is ours.
  expect([201, 409], JSON.stringify(created.body)).toContain(created.status);
  let view: { phase: string; cluster?: { id: string } } | undefined;
  for (const deadline = Date.now() + 120_000; ;) {
    const res = await apiRetrying<{ phase: string; cluster?: { id: string } }>(drill, 'GET', `${path}?wait=10`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    view = res.body;
    if (view.phase === 'Running') break;
    expect(view.phase, `claim ${claim}`).toMatch(/^(Pending|Starting)$/);
    if (Date.now() > deadline) throw new Error(`claim ${claim} not Running after 120 s: ${JSON.stringify(view)}`);
  }
  const kubeconfig = await apiRetryingText(drill, `${path}/kubeconfig`);
  expect(kubeconfig, `kubeconfig of ${claim}`).toContain('apiVersion');
  await testsRun;
  const released = await apiRetrying<{ job: JobView }>(drill, 'DELETE', path);
  expect(released.status, JSON.stringify(released.body)).toBe(202);
  return { claim, cluster: view.cluster!.id, releaseJob: released.body.job.id };
}

/** The kubeconfig is YAML, not JSON: fetched from the running api straight, retried like apiRetrying. */
async function apiRetryingText(drill: Drill, path: string): Promise<string> {
  for (const deadline = Date.now() + 60_000; ;) {
    try {
      const api = drill.roles.find((r) => r.role === 'api' && r.running());
      if (api) {
        const res = await fetch(`${api.url}${path}`);
        const text = await res.text();
        if (res.status === 200) return text;
        if (res.status !== 503) throw new Error(`GET ${path}: ${res.status} ${text}`);
      }
    } catch (err) {
      if (String(err).includes('GET ') || Date.now() > deadline) throw err;
    }
    if (Date.now() > deadline) throw new Error(`GET ${path}: no answer in 60 s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
