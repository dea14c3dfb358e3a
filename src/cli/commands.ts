// The commands: claim, status, heartbeat, extend, release, kubeconfig, hibernate, resume. Each returns its exit code.
import { parse, parseCliDuration, parseId, parseSelector, UsageError } from './args.js';
import { ApiError } from './client.js';
import { describeClaim, waiting, type ClaimView } from './claim-view.js';
import { EXIT, interruptedCode, pause, printJson, type CliContext } from './context.js';
import { heartbeatWhileWaiting } from './heartbeat-while-waiting.js';
import { waitForClaim } from './wait-for-claim.js';

interface JobView {
  id: string;
  state: string;
  steps: Array<{ step: string; message?: string }>;
  error?: { message: string };
}

async function writeKubeconfig(ctx: CliContext, id: string, path: string): Promise<void> {
  const text = await ctx.client.request<string>('GET', `/v1/claims/${id}/kubeconfig`, { text: true });
  await ctx.writeSecretFile(path, text);
}

function finish(ctx: CliContext, view: ClaimView, extra: Record<string, unknown> = {}): void {
  if (ctx.json) printJson(ctx, { ...view, ...extra });
  else
    ctx.out(
      describeClaim(view, ctx.client.base).join('\n') +
        (extra.kubeconfig ? `\nkubeconfig ${String(extra.kubeconfig)}` : ''),
    );
}

export async function claim(ctx: CliContext, args: string[]): Promise<number> {
  const { values } = parse(args, {
    pool: { type: 'string' },
    selector: { type: 'string', multiple: true },
    lifetime: { type: 'string' },
    wait: { type: 'string' },
    'kubeconfig-out': { type: 'string' },
    name: { type: 'string' },
    'heartbeat-timeout': { type: 'string' },
    subject: { type: 'string', multiple: true },
    'keep-on-timeout': { type: 'boolean' },
  });
  if (Boolean(values.pool) === Boolean(values.selector?.length))
    throw new UsageError('give --pool P or --selector key=value (not both)');
  const waitMs = values.wait ? parseCliDuration(values.wait, '--wait') : undefined;
  if (values['kubeconfig-out'] && waitMs === undefined)
    throw new UsageError('--kubeconfig-out needs --wait: the kubeconfig exists once the cluster runs');
  const subjects = (values.subject ?? []).map((s) => {
    const [kind, name, namespace] = s.split(':');
    if (!kind || !name || !['User', 'Group', 'ServiceAccount'].includes(kind))
      throw new UsageError(`--subject: "${s}" is not User:name, Group:name or ServiceAccount:name:namespace`);
    return { kind, name, ...(namespace ? { namespace } : {}) };
  });
  const started = ctx.now();
  const created = await ctx.client.request<ClaimView>('POST', '/v1/claims', {
    body: {
      ...(values.pool ? { pool: values.pool } : { selector: parseSelector(values.selector ?? []) }),
      ...(values.name ? { name: values.name } : {}),
      ...(values.lifetime ? { lifetime: values.lifetime } : {}),
      ...(values['heartbeat-timeout'] ? { heartbeatTimeout: values['heartbeat-timeout'] } : {}),
      ...(subjects.length ? { subjects } : {}),
    },
  });
  const id = created.id.split('/').map(encodeURIComponent).join('/');
  ctx.err(`claimed ${created.id} from ${created.pool}${created.pickedBecause ? ` (${created.pickedBecause})` : ''}`);
  ctx.err(`follow: ${ctx.client.base}${created.links.self}`);
  if (waitMs === undefined) {
    finish(ctx, created);
    return EXIT.ok;
  }
  // From here on a non-zero exit means the caller holds nothing: a CI script (or a Tekton step that stops the
  // Task) cannot be trusted to release a claim whose id it may never have read, and a pending claim never
  // expires in Hive (REFERENCE.md §5). So stdout carries the claim only while the caller holds it: a script that
  // reads `.id` from it and releases that id later never mistakes a released claim for its own.
  const giveBack = async (why: string): Promise<boolean> => {
    try {
      await ctx.client.request('DELETE', `/v1/claims/${id}`);
      ctx.err(`released ${created.id}: ${why}`);
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        ctx.err(`${created.id} is already gone: ${why}`);
        return true;
      }
      ctx.err(
        `could not release ${created.id} (${why}): ${(err as Error).message}; you still hold it: beekeeper release ${created.id}`,
      );
      return false;
    }
  };
  let view: ClaimView;
  const stopHeartbeat = created.heartbeatTimeoutSeconds
    ? await heartbeatWhileWaiting(ctx, id, created.heartbeatTimeoutSeconds)
    : async () => undefined;
  try {
    view = await waitForClaim(ctx, id, started + waitMs, created).finally(stopHeartbeat);
    if (view.phase === 'Running') {
      const kubeconfig = values['kubeconfig-out'];
      if (kubeconfig) await writeKubeconfig(ctx, id, kubeconfig);
      finish(ctx, view, kubeconfig ? { kubeconfig } : {});
      return EXIT.ok;
    }
  } catch (err) {
    if (!(await giveBack(`the claim failed: ${(err as Error).message}`))) finish(ctx, created);
    throw err;
  }
  if (waiting(view)) {
    const interrupted = ctx.signal.aborted;
    const kept =
      values['keep-on-timeout'] ||
      !(await giveBack(
        `${interrupted ? `interrupted (${String(ctx.signal.reason)})` : 'not running within --wait'} (use --keep-on-timeout to keep it)`,
      ));
    if (kept) finish(ctx, view);
    return interrupted ? interruptedCode(ctx.signal) : EXIT.timeout;
  }
  ctx.err(`claim ${view.id} will not run: ${view.message}`);
  if (view.phase !== 'Releasing' && !(await giveBack('it will not run'))) finish(ctx, view);
  return EXIT.failure;
}

export async function status(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { wait: { type: 'string' } });
  const id = parseId(positionals[0], 'claim');
  const waitMs = values.wait ? parseCliDuration(values.wait, '--wait') : undefined;
  const view = waitMs
    ? await waitForClaim(ctx, id, ctx.now() + waitMs)
    : await ctx.client.request<ClaimView>('GET', `/v1/claims/${id}`);
  finish(ctx, view);
  if (waitMs && waiting(view)) return EXIT.timeout;
  return view.phase === 'ClusterLost' ? EXIT.failure : EXIT.ok;
}

export async function heartbeat(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { every: { type: 'string' }, once: { type: 'boolean' } });
  const id = parseId(positionals[0], 'claim');
  const everyMs = parseCliDuration(values.every ?? '60s', '--every');
  if (everyMs < 1000) throw new UsageError('--every must be at least 1s');
  let failures = 0;
  while (!ctx.signal.aborted) {
    try {
      const beat = await ctx.client.request<{ renewedAt: string; expiresAt: string }>(
        'POST',
        `/v1/claims/${id}/heartbeat`,
        { body: {}, signal: ctx.signal },
      );
      failures = 0;
      if (ctx.json) printJson(ctx, beat);
      else ctx.err(`heartbeat ${positionals[0]}: renewed, expires ${beat.expiresAt}`);
    } catch (err) {
      if ((err as Error).name === 'AbortError') break;
      // The claim is gone or takes no heartbeats: nothing left to keep alive.
      if (err instanceof ApiError && (err.status === 404 || err.status === 409 || err.status === 422)) {
        ctx.err(`heartbeat stopped: ${err.message}`);
        return EXIT.failure;
      }
      failures += 1;
      ctx.err(`heartbeat failed (${failures} in a row), retrying: ${(err as Error).message}`);
    }
    if (values.once) break;
    await pause(everyMs, ctx.signal);
  }
  return EXIT.ok;
}

export async function extend(ctx: CliContext, args: string[]): Promise<number> {
  // `--by` was the duration before the API's `by` (who) existed, and scripts use it: who is `--as`.
  const { values, positionals } = parse(args, {
    by: { type: 'string' },
    lifetime: { type: 'string' },
    as: { type: 'string' },
    reason: { type: 'string' },
  });
  const id = parseId(positionals[0], 'claim');
  if (Boolean(values.by) === Boolean(values.lifetime))
    throw new UsageError('give --by DURATION (time to add) or --lifetime DURATION (new total)');
  if (values.as !== undefined && values.as.trim() === '')
    throw new UsageError("--as: name who extends (it is recorded), or leave it out for the API token's holder");
  if (values.reason !== undefined && values.reason.trim() === '')
    throw new UsageError('--reason: say why (it is recorded), or leave it out');
  const body = {
    ...(values.by ? { extendBy: values.by } : { lifetime: values.lifetime }),
    ...(values.as !== undefined ? { by: values.as } : {}),
    ...(values.reason !== undefined ? { reason: values.reason } : {}),
  };
  const view = await ctx.client.request<ClaimView>('PATCH', `/v1/claims/${id}`, { body });
  if (ctx.json) printJson(ctx, view);
  else
    ctx.out(
      `lifetime of ${view.id} is now ${view.lifetime?.lifetime ?? '?'}${view.lifetime?.expiresAt ? `, ends ${view.lifetime.expiresAt}` : ''}`,
    );
  return EXIT.ok;
}

async function followJob(
  ctx: CliContext,
  job: JobView,
  waitMs: number | undefined,
): Promise<{ job: JobView; code: number }> {
  let current = job;
  const deadline = ctx.now() + (waitMs ?? 0);
  let shown = 0;
  while (waitMs !== undefined && !['completed', 'failed'].includes(current.state) && !ctx.signal.aborted) {
    const left = Math.ceil((deadline - ctx.now()) / 1000);
    if (left <= 0) break;
    current = (
      await ctx.client.request<{ job: JobView }>('GET', `/v1/jobs/${encodeURIComponent(job.id)}`, {
        query: { wait: Math.min(left, 30) },
        signal: ctx.signal,
      })
    ).job;
    for (const s of current.steps.slice(shown)) ctx.err(`${s.step}${s.message ? `: ${s.message}` : ''}`);
    shown = current.steps.length;
  }
  if (current.state === 'failed') return { job: current, code: EXIT.failure };
  if (waitMs !== undefined && current.state !== 'completed') return { job: current, code: EXIT.timeout };
  return { job: current, code: EXIT.ok };
}

export async function release(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { wait: { type: 'string' } });
  const id = parseId(positionals[0], 'claim');
  const waitMs = values.wait ? parseCliDuration(values.wait, '--wait') : undefined;
  const answer = await ctx.client
    .request<{ claim: ClaimView; job: JobView }>('DELETE', `/v1/claims/${id}`)
    .catch((err: unknown) => {
      // Released already (by a `claim --wait` that gave it back, the heartbeat reaper, Hive's lifetime): the goal is met.
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    });
  if (!answer) {
    ctx.err(`${positionals[0]} is already gone; nothing to release`);
    return EXIT.ok;
  }
  ctx.err(`released ${answer.claim.id}; deprovisioning continues as job ${answer.job.id}`);
  const { job, code } = await followJob(ctx, answer.job, waitMs);
  if (ctx.json) printJson(ctx, { claim: answer.claim, job });
  else ctx.out(`${answer.claim.id} released (job ${job.id}: ${job.state})`);
  return code;
}

export async function kubeconfig(ctx: CliContext, args: string[]): Promise<number> {
  const { values, positionals } = parse(args, { out: { type: 'string' } });
  const id = parseId(positionals[0], 'claim');
  if (values.out) {
    await writeKubeconfig(ctx, id, values.out);
    ctx.err(`kubeconfig written to ${values.out}`);
  } else {
    ctx.out(await ctx.client.request<string>('GET', `/v1/claims/${id}/kubeconfig`, { text: true }));
  }
  return EXIT.ok;
}

export function power(action: 'hibernate' | 'resume') {
  return async (ctx: CliContext, args: string[]): Promise<number> => {
    const { values, positionals } = parse(args, { wait: { type: 'string' } });
    const id = parseId(positionals[0], 'cluster');
    const waitMs = values.wait ? parseCliDuration(values.wait, '--wait') : undefined;
    const answer = await ctx.client.request<{ job: JobView }>('POST', `/v1/clusters/${id}/${action}`, { body: {} });
    ctx.err(`${action} of ${positionals[0]}: job ${answer.job.id}`);
    const { job, code } = await followJob(ctx, answer.job, waitMs);
    if (ctx.json) printJson(ctx, { job });
    else ctx.out(`${action} ${positionals[0]}: ${job.state}${job.error ? ` (${job.error.message})` : ''}`);
    return code;
  };
}
