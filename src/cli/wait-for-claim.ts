// Waiting for a claim to run: long polls (`?wait`) in slices, so the server is woken by Hive's events and the
// CLI never polls tightly; progress lines go to stderr whenever the claim's story changes.
import type { ClaimView } from './claim-view.js';
import { waiting } from './claim-view.js';
import type { CliContext } from './context.js';

const SLICE_SECONDS = 30;

export async function waitForClaim(ctx: CliContext, id: string, deadline: number, first?: ClaimView): Promise<ClaimView> {
  let view = first ?? (await ctx.client.request<ClaimView>('GET', `/v1/claims/${id}`));
  let said = '';
  const say = (v: ClaimView) => {
    const line = `${v.phase}: ${v.message}${v.queue ? ` [position ${v.queue.position}]` : ''}${v.eta ? ` (~${Math.ceil(v.eta.seconds / 60)}m)` : ''}`;
    if (line !== said) ctx.err(line);
    said = line;
  };
  say(view);
  while (waiting(view) && !ctx.signal.aborted) {
    const left = Math.ceil((deadline - ctx.now()) / 1000);
    if (left <= 0) break;
    view = await ctx.client.request<ClaimView>('GET', `/v1/claims/${id}`, { query: { wait: Math.min(left, SLICE_SECONDS) }, signal: ctx.signal }).catch((err: Error) => {
      if (err.name === 'AbortError') return view;
      throw err;
    });
    say(view);
  }
  return view;
}
