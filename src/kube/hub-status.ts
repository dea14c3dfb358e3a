// What GET /v1/hubs reports for a hub (through the periodic refresh, src/system/health-refresher.ts): reachable at
// all, Hive's API group served, cache sizes, informer health, and when its credentials were loaded (and why changed
// ones were not).
import type { HubCache, HubStatus } from '../services/ports.js';
import type { Hub } from './hub.js';
import { toDomainError } from './map-error.js';
import { missingHiveResources } from '../hive/supported-hive.js';

const PROBE_TIMEOUT_MS = 3_000;

/** What the hub's informer caches hold and how their watches are: memory only, no request. */
export function hubCache(hub: Hub): HubCache {
  const counts: HubStatus['counts'] = {};
  const informers: HubStatus['informers'] = {};
  for (const [kind, inf] of hub.informers) {
    const health = inf.health();
    informers[kind] = health;
    if (health.synced) counts[kind] = inf.list().length;
  }
  const loadedAt = hub.credentials.loadedAt();
  const problem = hub.credentials.problem();
  return {
    name: hub.name,
    counts,
    informers,
    ...(loadedAt === undefined ? {} : { credentialsLoadedAt: new Date(loadedAt).toISOString() }),
    ...(problem === undefined ? {} : { credentialsProblem: problem }),
  };
}

export async function hubStatus(hub: Hub): Promise<HubStatus> {
  const cache = hubCache(hub);
  const { counts, informers } = cache;
  const credentialsLoadedAt = {
    ...(cache.credentialsLoadedAt === undefined ? {} : { credentialsLoadedAt: cache.credentialsLoadedAt }),
    ...(cache.credentialsProblem === undefined ? {} : { credentialsProblem: cache.credentialsProblem }),
  };
  if (!hub.credentials.current()) {
    const message = cache.credentialsProblem ?? 'no credentials';
    return {
      name: hub.name,
      reachable: false,
      hiveCrdsPresent: false,
      message,
      counts,
      informers,
      ...credentialsLoadedAt,
    };
  }
  try {
    const resources = await hub.rest.request<{ resources?: Array<{ name: string }> }>(
      'GET',
      '/apis/hive.openshift.io/v1',
      {
        timeoutMs: PROBE_TIMEOUT_MS,
      },
    );
    // Every kind Beekeeper uses, not only ClusterDeployment: a Hive too old for one of them is said here.
    const missing = missingHiveResources((resources.resources ?? []).map((r) => r.name));
    const present = missing.length === 0;
    return {
      name: hub.name,
      reachable: true,
      hiveCrdsPresent: present,
      ...(present
        ? {}
        : {
            message:
              `the hive.openshift.io/v1 API does not serve ${missing.join(', ')} ` +
              '(docs/upgrades.md#supported-hive-versions)',
          }),
      counts,
      informers,
      ...credentialsLoadedAt,
    };
  } catch (err) {
    const mapped = toDomainError(err, `hub ${hub.name}`) as { code?: string; message?: string };
    if (mapped.code === 'NotFound') {
      return {
        name: hub.name,
        reachable: true,
        hiveCrdsPresent: false,
        message: 'Hive CRDs are not installed (hive.openshift.io/v1 not served)',
        counts,
        informers,
        ...credentialsLoadedAt,
      };
    }
    return {
      name: hub.name,
      reachable: false,
      hiveCrdsPresent: false,
      message: mapped.message ?? String(err),
      counts,
      informers,
      ...credentialsLoadedAt,
    };
  }
}
