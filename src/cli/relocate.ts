// `beekeeper relocate`, `beekeeper relocations [ID]` and `beekeeper relocation status|abort ID`: move clusters
// between hubs, with the preflight table first and the progress while it runs.
import { parse, parseCliDuration, UsageError } from './args.js';
import { ApiError } from './client.js';
import { EXIT, printJson, type CliContext } from './context.js';
import {
  describeList,
  describeRelocation,
  describeReport,
  progressLine,
  type PreflightReport,
  type RelocationView,
} from './relocation-view.js';

const nsName = (text: string, flag: string) => {
  const parts = text.split('/');
  if (parts.length !== 2 || parts.some((p) => !p)) throw new UsageError(`${flag}: "${text}" is not namespace/name`);
  return { namespace: parts[0]!, name: parts[1]! };
};

function relocationId(text: string | undefined): string {
  if (!text) throw new UsageError('give the relocation id (as `beekeeper relocate` printed it)');
  return encodeURIComponent(text);
}

/**
 * The request body from the flags: exactly one of --cluster, a selector (--selector/--namespace/--team/--pool), or
 * --all (the empty selector: every cluster of the source hub). `--wave N` sizes the waves (`--wave-size` is its
 * older spelling).
 */
export function relocationBody(args: string[]): { body: Record<string, unknown>; waitMs?: number } {
  const { values } = parse(args, {
    from: { type: 'string' },
    to: { type: 'string' },
    cluster: { type: 'string', multiple: true },
    selector: { type: 'string', multiple: true },
    namespace: { type: 'string', multiple: true },
    team: { type: 'string' },
    pool: { type: 'string' },
    all: { type: 'boolean' },
    wave: { type: 'string' },
    'wave-size': { type: 'string' },
    pause: { type: 'string' },
    'dry-run': { type: 'boolean' },
    'skip-failed': { type: 'boolean' },
    wait: { type: 'string' },
    as: { type: 'string' },
  });
  if (!values.from || !values.to) throw new UsageError('give --from HUB and --to HUB');
  const labels: Record<string, string> = {};
  for (const pair of (values.selector ?? []).flatMap((v) => v.split(','))) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--selector: "${pair}" is not key=value`);
    labels[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  const selector = {
    ...(Object.keys(labels).length ? { labels: { matchLabels: labels } } : {}),
    ...(values.namespace?.length ? { namespaces: values.namespace } : {}),
    ...(values.team ? { team: values.team } : {}),
    ...(values.pool ? { pool: nsName(values.pool, '--pool') } : {}),
  };
  const hasSelector = Object.keys(selector).length > 0;
  const ways = [Boolean(values.cluster?.length), hasSelector, Boolean(values.all)].filter(Boolean).length;
  if (ways !== 1)
    throw new UsageError(
      'give --cluster NS/NAME (repeatable), a selector (--selector, --namespace, --team, --pool), or --all ' +
        '(every cluster of the --from hub)',
    );
  if (values.wave !== undefined && values['wave-size'] !== undefined)
    throw new UsageError('give --wave N or --wave-size N (the same flag), not both');
  const waveFlag = values.wave !== undefined ? '--wave' : '--wave-size';
  const waveText = values.wave ?? values['wave-size'];
  let size: number | undefined;
  if (waveText !== undefined) {
    size = Number(waveText);
    if (!Number.isInteger(size) || size < 1) throw new UsageError(`${waveFlag}: a whole number of clusters, 1 or more`);
  }
  const pauseSeconds =
    values.pause !== undefined ? Math.round(parseCliDuration(values.pause, '--pause') / 1000) : undefined;
  const body = {
    from: values.from,
    to: values.to,
    ...(values.cluster?.length ? { clusters: values.cluster.map((c) => nsName(c, '--cluster')) } : { selector }),
    ...(size !== undefined || pauseSeconds !== undefined
      ? { waves: { ...(size !== undefined ? { size } : {}), ...(pauseSeconds !== undefined ? { pauseSeconds } : {}) } }
      : {}),
    ...(values['skip-failed'] ? { skipFailed: true } : {}),
    ...(values['dry-run'] ? { dryRun: true } : {}),
    ...(values.as ? { by: values.as } : {}),
  };
  return { body, ...(values.wait ? { waitMs: parseCliDuration(values.wait, '--wait') } : {}) };
}

/** Follows the relocation's event stream until it ends or the deadline passes; prints a line per change. */
async function follow(ctx: CliContext, first: RelocationView, deadline: number): Promise<RelocationView> {
  let view = first;
  let last = '';
  const say = (v: RelocationView) => {
    const line = progressLine(v);
    if (line !== last) ctx.err(line);
    last = line;
  };
  say(view);
  while (!view.terminal && !ctx.signal.aborted && ctx.now() < deadline) {
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), Math.max(0, deadline - ctx.now()));
    const onAbort = () => stop.abort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const e of ctx.client.events(`/v1/relocations/${encodeURIComponent(view.id)}/events`, stop.signal)) {
        if (e.event !== 'relocation') continue;
        view = JSON.parse(e.data) as RelocationView;
        say(view);
      }
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onAbort);
    }
    // The stream ended (done, the server restarting, or our deadline): read where it stands.
    view = await ctx.client.request<RelocationView>('GET', `/v1/relocations/${encodeURIComponent(view.id)}`);
  }
  return view;
}

const outcome = (v: RelocationView) => (v.phase === 'Succeeded' ? EXIT.ok : v.terminal ? EXIT.failure : EXIT.timeout);

export async function relocate(ctx: CliContext, args: string[]): Promise<number> {
  const { body, waitMs } = relocationBody(args);
  let answer: { dryRun?: true; report: PreflightReport; relocation?: RelocationView; job?: { id: string } };
  try {
    answer = await ctx.client.request('POST', '/v1/relocations', { body });
  } catch (err) {
    const report = (err as ApiError).problem as { report?: PreflightReport } | undefined;
    if (err instanceof ApiError && err.status === 422 && report?.report) {
      if (ctx.json) printJson(ctx, err.problem);
      else ctx.out(describeReport(report.report));
      ctx.err(`beekeeper: ${err.message}`);
      return EXIT.failure;
    }
    throw err;
  }
  if (answer.dryRun) {
    if (ctx.json) printJson(ctx, answer);
    else ctx.out(describeReport(answer.report));
    return answer.report.clusters.every((c) => c.ok) ? EXIT.ok : EXIT.failure;
  }
  const created = answer.relocation!;
  if (!ctx.json) ctx.err(describeReport(answer.report));
  ctx.err(
    `relocation ${created.id}: ${created.progress.total} clusters, ${created.waves.total} wave(s), job ${answer.job?.id}`,
  );
  ctx.err(`follow: ${ctx.client.base}/v1/relocations/${encodeURIComponent(created.id)}`);
  const view = waitMs === undefined ? created : await follow(ctx, created, ctx.now() + waitMs);
  if (ctx.json) printJson(ctx, { relocation: view, job: answer.job });
  else ctx.out(describeRelocation(view));
  return waitMs === undefined ? EXIT.ok : outcome(view);
}

export async function relocations(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { phase: { type: 'string' } });
  if (positionals[0]) {
    const view = await ctx.client.request<RelocationView>('GET', `/v1/relocations/${relocationId(positionals[0])}`);
    if (ctx.json) printJson(ctx, view);
    else ctx.out(describeRelocation(view));
    return EXIT.ok;
  }
  const { items } = await ctx.client.request<{ items: RelocationView[] }>('GET', '/v1/relocations', {
    query: { phase: values.phase },
  });
  if (ctx.json) printJson(ctx, items);
  else ctx.out(describeList(items));
  return EXIT.ok;
}

/** `relocation status ID [--wait 1h]` and `relocation abort ID [--wait 30s] [--as NAME]`. */
export async function relocation(ctx: CliContext, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values, positionals } = parse(rest, { wait: { type: 'string' }, as: { type: 'string' } });
  const id = relocationId(positionals[0]);
  const waitMs = values.wait ? parseCliDuration(values.wait, '--wait') : undefined;
  let view: RelocationView;
  if (sub === 'status') {
    view = await ctx.client.request<RelocationView>('GET', `/v1/relocations/${id}`);
    if (waitMs !== undefined) view = await follow(ctx, view, ctx.now() + waitMs);
  } else if (sub === 'abort') {
    view = await ctx.client.request<RelocationView>('POST', `/v1/relocations/${id}/abort`, {
      body: values.as ? { by: values.as } : {},
      query: { wait: waitMs !== undefined ? Math.ceil(waitMs / 1000) : undefined },
    });
    ctx.err(
      view.terminal
        ? `relocation ${view.id} ${view.phase}`
        : `abort of ${view.id} requested; in-flight moves are being undone (beekeeper relocation status ${view.id} --wait 10m)`,
    );
  } else throw new UsageError('relocation: give status ID or abort ID');
  if (ctx.json) printJson(ctx, view);
  else ctx.out(describeRelocation(view));
  if (sub === 'abort') return view.terminal ? EXIT.ok : EXIT.timeout;
  return waitMs === undefined ? EXIT.ok : outcome(view);
}
