// What one value's schema cannot say: rules across settings and across the entries of a list. They read the
// settings as given (possibly invalid elsewhere), so that these problems are listed with the schema's own.
import { HUB_NAME } from './schema.js';
import type { Problem } from './validate.js';

type Loose = Record<string, unknown> | undefined;

export function checkRules(settings: unknown, isSet: (path: string) => boolean): Problem[] {
  const s = settings as Loose;
  return [...hubRules(s), ...redisRules(s?.redis as Loose, isSet), ...accessRules(s)];
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

const entries = (v: unknown): [number, Record<string, unknown>][] =>
  Array.isArray(v)
    ? v.flatMap((e, i): [number, Record<string, unknown>][] =>
        e && typeof e === 'object' ? [[i, e as Record<string, unknown>]] : [],
      )
    : [];

/** Tokens and teams: what one entry's schema cannot say. Messages never quote a token. */
function accessRules(s: Loose): Problem[] {
  const problems: Problem[] = [];
  const auth = s?.auth as Loose;
  for (const [i, t] of entries(auth?.tokens))
    for (const p of tokenEntryRules(t))
      problems.push({ path: ['auth', 'tokens', String(i), ...p.path], reason: p.reason });
  problems.push(...signInRules(s));
  const names = new Set<string>();
  for (const [i, team] of entries(s?.teams)) {
    if (typeof team.name === 'string') {
      if (names.has(team.name))
        problems.push({ path: ['teams', String(i), 'name'], reason: `team ${team.name} is listed twice` });
      names.add(team.name);
    }
    for (const [j, m] of entries(team.members)) {
      const said = ['user', 'group', 'serviceAccount'].filter((k) => m[k] !== undefined);
      if (said.length !== 1)
        problems.push({
          path: ['teams', String(i), 'members', String(j)],
          reason: 'set exactly one of user, group or serviceAccount',
        });
    }
  }
  return problems;
}

/** One token entry (config, tokens file or Secret): paths relative to the entry. Never quotes the token. */
export function tokenEntryRules(t: Record<string, unknown>): Problem[] {
  const problems: Problem[] = [];
  if ((t.token === undefined) === (t.tokenSha256 === undefined))
    problems.push({ path: [], reason: 'set exactly one of token or tokenSha256' });
  if (t.team !== undefined && t.role === undefined)
    problems.push({ path: ['role'], reason: 'required with a team (viewer, operator or admin)' });
  if (t.team !== undefined && t.role === 'platform-admin')
    problems.push({ path: ['team'], reason: 'a platform-admin token spans teams: leave team out' });
  return problems;
}

/** OIDC needs both an issuer and an audience; TokenReview and the tokens Secret name a configured hub. */
function signInRules(s: Loose): Problem[] {
  const problems: Problem[] = [];
  const auth = s?.auth as Loose;
  const oidc = auth?.oidc as Loose;
  if ((oidc?.issuer === undefined) !== (oidc?.audience === undefined))
    problems.push({
      path: ['auth', 'oidc', oidc?.issuer === undefined ? 'issuer' : 'audience'],
      reason: 'required with OIDC (set both the issuer and the audience)',
    });
  const hubs = Array.isArray(s?.hubs)
    ? (s.hubs as Loose[]).map((h) => h?.name).filter((n) => typeof n === 'string')
    : [];
  const hubOf = (path: string[], hub: unknown) => {
    // Without hubs (embedded mode) the one hub is named when the simulator starts.
    if (hubs.length > 0 && typeof hub === 'string' && HUB_NAME.test(hub) && !hubs.includes(hub))
      problems.push({ path, reason: `${JSON.stringify(hub)} is not one of the configured hubs (${hubs.join(', ')})` });
  };
  hubOf(['auth', 'tokenReview', 'hub'], (auth?.tokenReview as Loose)?.hub);
  if (typeof auth?.tokensSecret === 'string') hubOf(['auth', 'tokensSecret'], auth.tokensSecret.split('/')[0]);
  return problems;
}
