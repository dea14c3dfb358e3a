// The parts of the API's claim view the CLI prints.
export interface ClaimView {
  id: string;
  pool: string;
  phase: 'Pending' | 'Starting' | 'Running' | 'Hibernating' | 'Releasing' | 'ClusterLost';
  reason: string;
  message: string;
  queue?: { position: number; ahead: number };
  eta?: { seconds: number; basis: string };
  pickedBecause?: string;
  cluster?: { id: string; apiURL?: string; webConsoleURL?: string; powerState?: string };
  lifetime?: { lifetime: string; claimedAt?: string; expiresAt?: string };
  heartbeatTimeoutSeconds?: number;
  links: { self: string; events: string; kubeconfig: string; credentials: string; heartbeat: string };
}

export const waiting = (v: ClaimView) => v.phase === 'Pending' || v.phase === 'Starting';

export function describeClaim(v: ClaimView, base: string): string[] {
  const lines = [`claim     ${v.id}`, `pool      ${v.pool}`, `phase     ${v.phase}: ${v.message}`];
  if (v.queue) lines.push(`queue     position ${v.queue.position} (${v.queue.ahead} ahead)`);
  if (v.eta) lines.push(`estimate  ~${Math.ceil(v.eta.seconds / 60)}m (${v.eta.basis})`);
  if (v.pickedBecause) lines.push(`picked    ${v.pickedBecause}`);
  if (v.cluster) lines.push(`cluster   ${v.cluster.id}`);
  if (v.cluster?.apiURL) lines.push(`api       ${v.cluster.apiURL}`);
  if (v.cluster?.webConsoleURL) lines.push(`console   ${v.cluster.webConsoleURL}`);
  if (v.lifetime)
    lines.push(`lifetime  ${v.lifetime.lifetime}${v.lifetime.expiresAt ? `, ends ${v.lifetime.expiresAt}` : ''}`);
  lines.push(`url       ${base}${v.links.self}`, `events    ${base}${v.links.events}`);
  return lines;
}
