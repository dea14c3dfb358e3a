// A relocation's plan and progress, from its resource alone: which wave each cluster moves in, how many are where,
// and an estimate of the end from the waves done so far.
import type {
  RelocationCheck,
  RelocationCluster,
  RelocationClusterState,
  RelocationPhase,
  RelocationStatus,
} from '../resources/relocation.js';

export interface PlannedCluster {
  namespace: string;
  name: string;
  ok: boolean;
  checks: RelocationCheck[];
}

const TERMINAL: ReadonlySet<RelocationPhase> = new Set(['Succeeded', 'Failed', 'Aborted']);
export const isTerminal = (phase: RelocationPhase | undefined): boolean => !!phase && TERMINAL.has(phase);

/**
 * The seeded status: clusters that pass preflight in waves of `size` (all in one wave without it), in the order
 * given; those that fail are `preflight-failed` in wave 1 and never move. Every cluster is on the source hub.
 */
export function seedStatus(
  clusters: readonly PlannedCluster[],
  opts: { from: string; size?: number; warnings?: string[] },
): RelocationStatus {
  const movable = clusters.filter((c) => c.ok).length;
  const size = opts.size && opts.size > 0 ? opts.size : Math.max(movable, 1);
  let index = 0;
  const seeded: RelocationCluster[] = clusters.map((c) => {
    const base = {
      namespace: c.namespace,
      name: c.name,
      hub: opts.from,
      ...(c.checks.length ? { checks: c.checks } : {}),
    };
    if (!c.ok) {
      const first = c.checks.find((k) => k.severity === 'error');
      return {
        ...base,
        wave: 1,
        state: 'preflight-failed' as const,
        ...(first ? { reason: first.check, message: first.message } : {}),
      };
    }
    const wave = Math.floor(index++ / size) + 1;
    return { ...base, wave, state: 'pending' as const };
  });
  return {
    phase: 'Pending',
    clusters: seeded,
    waves: { total: Math.ceil(movable / size), done: 0 },
    ...(opts.warnings?.length ? { warnings: opts.warnings } : {}),
  };
}

export type Progress = Record<RelocationClusterState, number> & { total: number };

export function progressOf(clusters: readonly RelocationCluster[] = []): Progress {
  const p: Progress = {
    total: clusters.length,
    pending: 0,
    'preflight-failed': 0,
    moving: 0,
    verifying: 0,
    moved: 0,
    failed: 0,
    aborted: 0,
  };
  for (const c of clusters) p[c.state] += 1;
  return p;
}

/** status.eta when the job wrote one; else, once a wave is done, the pace so far extended to the waves left. */
export function etaOf(status: RelocationStatus | undefined, nowMs: number): string | undefined {
  if (!status || isTerminal(status.phase)) return undefined;
  if (status.eta) return status.eta;
  const started = status.startedAt ? Date.parse(status.startedAt) : NaN;
  const { total = 0, done = 0 } = status.waves ?? {};
  if (Number.isNaN(started) || done === 0 || done >= total) return undefined;
  const perWave = (nowMs - started) / done;
  return new Date(nowMs + perWave * (total - done)).toISOString();
}
