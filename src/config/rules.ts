// What one value's schema cannot say: rules across settings and across the entries of a list. They read the
// settings as given (possibly invalid elsewhere), so that these problems are listed with the schema's own.
import { HUB_NAME } from './schema.js';
import type { Problem } from './validate.js';

type Loose = Record<string, unknown> | undefined;

export function checkRules(settings: unknown, isSet: (path: string) => boolean): Problem[] {
  const s = settings as Loose;
  return [...hubRules(s), ...redisRules(s?.redis as Loose, isSet)];
}

function hubRules(s: Loose): Problem[] {
  const problems: Problem[] = [];
  const hubs = Array.isArray(s?.hubs) ? (s.hubs as unknown[]) : [];
  const names: string[] = [];
  hubs.forEach((raw, i) => {
    if (!raw || typeof raw !== 'object') return;
    const hub = raw as Record<string, unknown>;
    if ((hub.inCluster === true) === (hub.kubeconfig !== undefined)) {
      problems.push({ path: ['hubs', String(i)], reason: 'set exactly one of kubeconfig (a path) or inCluster: true' });
    }
    if (typeof hub.name !== 'string' || !HUB_NAME.test(hub.name)) return;
    if (names.includes(hub.name)) problems.push({ path: ['hubs'], reason: `hub ${hub.name} is listed twice` });
    else names.push(hub.name);
  });
  const stateHub = s?.stateHub;
  if (typeof stateHub === 'string' && HUB_NAME.test(stateHub) && names.length > 0 && !names.includes(stateHub)) {
    problems.push({
      path: ['stateHub'],
      reason: `${JSON.stringify(stateHub)} is not one of the configured hubs (${names.join(', ')})`,
    });
  }
  return problems;
}

function redisRules(redis: Loose, isSet: (path: string) => boolean): Problem[] {
  const problems: Problem[] = [];
  const url = isSet('redis.url');
  const sentinels = isSet('redis.sentinel.sentinels');
  const nodes = isSet('redis.cluster.nodes');
  const modes = [url && 'REDIS_URL', sentinels && 'sentinel', nodes && 'cluster'].filter(Boolean);
  if (modes.length > 1) {
    problems.push({ path: ['redis'], reason: `choose one of a URL, Sentinel or Cluster (got ${modes.join(' and ')})` });
  }
  if (sentinels && !isSet('redis.sentinel.name')) {
    problems.push({ path: ['redis', 'sentinel', 'name'], reason: 'required with Sentinel (the master group name)' });
  }
  if (!sentinels && isSet('redis.sentinel.name')) {
    problems.push({ path: ['redis', 'sentinel', 'name'], reason: 'set only together with the Sentinel addresses' });
  }
  const prefix = redis?.prefix;
  if (nodes && typeof prefix === 'string' && !/\{[^{}]+\}/.test(prefix)) {
    problems.push({
      path: ['redis', 'prefix'],
      reason: 'must contain a {hash tag} with Redis Cluster, e.g. {beekeeper}',
    });
  }
  return problems;
}
