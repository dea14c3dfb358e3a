// What GET /v1/hubs reports for a hub (through the periodic refresh, src/system/health-refresher.ts): reachable at
// all, Hive's API group served, cache sizes and informer health.
import type { HubCache, HubStatus } from '../services/ports.js';
import type { Hub } from './hub.js';
import { toDomainError } from './map-error.js';

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
  return { name: hub.name, counts, informers };
}

export async function hubStatus(hub: Hub): Promise<HubStatus> {
  const { counts, informers } = hubCache(hub);
  if (hub.brokenBecause) {
    return { name: hub.name, reachable: false, hiveCrdsPresent: false, message: hub.brokenBecause, counts, informers };
  }
  try {
    const resources = await hub.rest.request<{ resources?: Array<{ name: string }> }>(
      'GET',
      '/apis/hive.openshift.io/v1',
      {
        timeoutMs: PROBE_TIMEOUT_MS,
      },
    );
    const present = (resources.resources ?? []).some((r) => r.name === 'clusterdeployments');
    return {
      name: hub.name,
      reachable: true,
      hiveCrdsPresent: present,
      ...(present ? {} : { message: 'the hive.openshift.io/v1 API does not serve clusterdeployments' }),
      counts,
      informers,
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
      };
    }
    return {
      name: hub.name,
      reachable: false,
      hiveCrdsPresent: false,
      message: mapped.message ?? String(err),
      counts,
      informers,
    };
  }
}
