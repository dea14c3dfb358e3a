// `beekeeper whoami` and `beekeeper teams [NAME]`: who the token signs in as, and the caller's teams with their
// quotas and what they hold now (GET /v1/me, /v1/teams).
import { parse, UsageError } from './args.js';
import { EXIT, printJson, type CliContext } from './context.js';
import { table } from './relocation-view.js';

interface Me {
  name: string;
  via: string;
  groups: string[];
  grants: Array<{ team: string; role: string }>;
  platformAdmin: boolean;
}

type Counted = 'claims' | 'clusters' | 'runningClusters';

export interface TeamView {
  name: string;
  role: string;
  namespaces: string[];
  pools: string[];
  quotas: Partial<Record<Counted | 'maxLifetimeHours', number>>;
  usage: Record<Counted, number>;
}

export async function whoami(ctx: CliContext, args: string[]): Promise<number> {
  parse(args, {});
  const me = await ctx.client.request<Me>('GET', '/v1/me');
  if (ctx.json) {
    printJson(ctx, me);
    return EXIT.ok;
  }
  const roles = me.grants.map((g) => `${g.team}:${g.role}`).join(', ');
  ctx.out(
    [
      `name            ${me.name}`,
      `signed in via   ${me.via}`,
      `platform admin  ${me.platformAdmin ? 'yes' : 'no'}`,
      `teams           ${roles || '(none)'}`,
      ...(me.groups.length ? [`groups          ${me.groups.join(', ')}`] : []),
    ].join('\n'),
  );
  return EXIT.ok;
}

/** `used/limit`, or just `used` when the quota sets no limit. */
const of = (t: TeamView, q: Counted) => `${t.usage[q]}${t.quotas[q] !== undefined ? `/${t.quotas[q]}` : ''}`;
const maxLife = (t: TeamView) => (t.quotas.maxLifetimeHours !== undefined ? `${t.quotas.maxLifetimeHours}h` : '-');

export function describeTeams(teams: TeamView[]): string {
  if (teams.length === 0) return 'no teams';
  const rows = [['TEAM', 'ROLE', 'CLAIMS', 'CLUSTERS', 'RUNNING', 'MAX LIFETIME', 'NAMESPACES']];
  for (const t of teams)
    rows.push([
      t.name,
      t.role,
      of(t, 'claims'),
      of(t, 'clusters'),
      of(t, 'runningClusters'),
      maxLife(t),
      t.namespaces.join(',') || '-',
    ]);
  return table(rows);
}

export function describeTeam(t: TeamView): string {
  const line = (label: string, value: string) => `${label.padEnd(16)}${value}`;
  return [
    line('team', t.name),
    line('your role', t.role),
    line('namespaces', t.namespaces.join(', ') || '-'),
    line('pools', t.pools.join(', ') || '-'),
    line('claims', of(t, 'claims')),
    line('clusters', of(t, 'clusters')),
    line('running', of(t, 'runningClusters')),
    line('max lifetime', maxLife(t)),
  ].join('\n');
}

export async function teams(ctx: CliContext, args: string[]): Promise<number> {
  const { positionals } = parse(args, {});
  if (positionals.length > 1) throw new UsageError('teams: give at most one team name');
  const name = positionals[0];
  if (name !== undefined) {
    const view = await ctx.client.request<TeamView>('GET', `/v1/teams/${encodeURIComponent(name)}`);
    if (ctx.json) printJson(ctx, view);
    else ctx.out(describeTeam(view));
    return EXIT.ok;
  }
  const { items } = await ctx.client.request<{ items: TeamView[] }>('GET', '/v1/teams');
  if (ctx.json) printJson(ctx, items);
  else ctx.out(describeTeams(items));
  return EXIT.ok;
}
