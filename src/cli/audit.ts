// `beekeeper audit`: the audit trail (GET /v1/audit, docs/audit.md), newest first, as a table or JSON. Needs an
// admin's token: a team admin sees their teams' objects, a platform admin everything.
import { parse, parseCliDuration, UsageError } from './args.js';
import { EXIT, printJson, type CliContext } from './context.js';
import { table } from './relocation-view.js';

interface AuditRecord {
  time: string;
  requestId: string;
  actor: { name: string; via: string; role?: string; onBehalfOf?: string };
  team?: string;
  action: string;
  object: { kind?: string; hub?: string; namespace?: string; name?: string };
  result: { status: number; outcome: string };
  reason?: string;
}

interface AuditPage {
  items: AuditRecord[];
  nextCursor?: string;
  unreachableHubs?: string[];
}

const PAGE = 500;

/** `--since 1h` (that long ago) or an ISO time, as the API's date-time. */
function instant(ctx: CliContext, text: string, flag: string): string {
  if (!Number.isNaN(Date.parse(text)) && /^\d{4}-/.test(text)) return new Date(text).toISOString();
  return new Date(ctx.now() - parseCliDuration(text, flag)).toISOString();
}

/** `hub`, `hub/namespace` or `hub/namespace/name`. */
function objectQuery(text: string): Record<string, string> {
  const parts = text.split('/');
  if (parts.length > 3 || parts.some((p) => !p))
    throw new UsageError(`--object: "${text}" is not hub, hub/namespace or hub/namespace/name`);
  const [hub, namespace, name] = parts;
  return { hub: hub!, ...(namespace ? { namespace } : {}), ...(name ? { name } : {}) };
}

export async function audit(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    actor: { type: 'string' },
    team: { type: 'string' },
    action: { type: 'string' },
    result: { type: 'string' },
    since: { type: 'string' },
    until: { type: 'string' },
    object: { type: 'string' },
    limit: { type: 'string' },
  });
  if (positionals.length) throw new UsageError(`audit takes flags only, not "${positionals[0]}"`);
  if (values.result && !['allowed', 'refused', 'failed'].includes(values.result))
    throw new UsageError('--result: allowed, refused or failed');
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit: a whole number of records, at least 1');
  const query: Record<string, string | number | undefined> = {
    actor: values.actor,
    team: values.team,
    action: values.action,
    result: values.result,
    ...(values.since ? { since: instant(ctx, values.since, '--since') } : {}),
    ...(values.until ? { until: instant(ctx, values.until, '--until') } : {}),
    ...(values.object ? objectQuery(values.object) : {}),
  };
  const items: AuditRecord[] = [];
  const unreachable = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await ctx.client.request<AuditPage>('GET', '/v1/audit', {
      query: { ...query, limit: Math.min(PAGE, limit - items.length), cursor },
      signal: ctx.signal,
    });
    items.push(...page.items);
    for (const hub of page.unreachableHubs ?? []) unreachable.add(hub);
    cursor = page.nextCursor;
  } while (cursor && items.length < limit);
  for (const hub of unreachable) ctx.err(`hub ${hub} could not be read: its records are missing`);
  if (ctx.json) {
    printJson(ctx, items);
    return EXIT.ok;
  }
  if (items.length === 0) {
    ctx.err('no audit records match');
    return EXIT.ok;
  }
  const rows = [['TIME', 'ACTOR', 'TEAM', 'ACTION', 'OBJECT', 'RESULT', 'REQUEST']];
  for (const r of items)
    rows.push([
      r.time,
      `${r.actor.name}${r.actor.onBehalfOf ? ` (for ${r.actor.onBehalfOf})` : ''}`,
      r.team ?? '-',
      r.action,
      [r.object.hub, r.object.namespace, r.object.name].filter(Boolean).join('/') || '-',
      `${r.result.outcome} ${r.result.status}`,
      r.requestId,
    ]);
  ctx.out(table(rows));
  return EXIT.ok;
}
