// Waiting for a claim to run: follow its event stream (the server pushes every change of queue position, resume
// step or phase, woken by Hive's events), printing progress on stderr. If the stream is unavailable (a proxy that
// buffers SSE), fall back to long polls (`?wait`), which the server also answers on events, not by polling.
import { ApiError } from './client.js';
import type { ClaimView } from './claim-view.js';
import { waiting } from './claim-view.js';
import type { CliContext } from './context.js';

const SLICE_SECONDS = 30;

export async function waitForClaim(
  ctx: CliContext,
  id: string,
  deadline: number,
  first?: ClaimView,
): Promise<ClaimView> {
  let view = first ?? (await ctx.client.request<ClaimView>('GET', `/v1/claims/${id}`));
  let said = '';
  const say = (v: ClaimView) => {
    const line = `${v.phase}: ${v.message}${v.queue ? ` [position ${v.queue.position}]` : ''}${v.eta ? ` (~${Math.ceil(v.eta.seconds / 60)}m)` : ''}`;
    if (line !== said) ctx.err(line);
    said = line;
  };
  say(view);
  // A signal that came before we listen for it (e.g. while the claim was being created) must end the wait too.
  if (!waiting(view) || ctx.signal.aborted) return view;

  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(onAbort, Math.max(0, deadline - ctx.now()));
  try {
    for await (const { event, data } of ctx.client.events(`/v1/claims/${id}/events`, stop.signal)) {
      if (event === 'gone') throw new ApiError(404, `404 claim ${view.id} is gone`);
      if (event !== 'claim') continue;
      view = JSON.parse(data) as ClaimView;
      say(view);
      if (!waiting(view)) return view;
    }
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw err;
    if (stop.signal.aborted) return view;
  } finally {
    clearTimeout(timer);
    stop.abort();
    ctx.signal.removeEventListener('abort', onAbort);
  }

  while (waiting(view) && !ctx.signal.aborted) {
    const left = Math.ceil((deadline - ctx.now()) / 1000);
    if (left <= 0) break;
    view = await ctx.client
      .request<ClaimView>('GET', `/v1/claims/${id}`, {
        query: { wait: Math.min(left, SLICE_SECONDS) },
        signal: ctx.signal,
      })
      .catch((err: Error) => {
        if (err.name === 'AbortError') return view;
        throw err;
      });
    say(view);
  }
  return view;
}
