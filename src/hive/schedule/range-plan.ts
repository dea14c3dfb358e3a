// The planner over a range, for the preview: every edge in [fromMs, toMs) with the clusters it acts on and those
// it skips (and why), by the same per-cluster rules the sweeps follow (power-planner.ts). The answer is bounded:
// past `maxEdges` edges or `maxClusterEntries` cluster entries it stops before the first edge that does not fit,
// and says where, so the next request can start there.
import { installedAtMs } from './cd-facts.js';
import { planCluster } from './cluster-plan.js';
import { planInput, type ClusterFacts, type PlannerContext } from './power-planner.js';
import type { Schedule } from './schedule.js';
import type { Edge } from './types.js';

const DAY = 86_400_000;
/** Edges are computed a week at a time, so a dense cron stops being expanded once the cap is reached. */
const CHUNK_MS = 7 * DAY;

export interface RangeEdge<R> extends Edge {
  counts: { acted: number; skipped: number };
  /** Left out when the plan is asked for counts only. */
  clusters?: R[];
  skippedClusters?: Array<R & { reason: string; message: string }>;
}

export interface RangePlan<R> {
  edges: Array<RangeEdge<R>>;
  /** End of the range covered (exclusive): the asked-for end, or the first edge left out when truncated. */
  toMs: number;
  truncated: boolean;
}

export interface RangeCaps {
  maxEdges: number;
  /** Cluster entries listed in all; with `countsOnly` nothing is listed and only `maxEdges` applies. */
  maxClusterEntries: number;
  countsOnly?: boolean;
}

/** The schedule's own edges in [fromMs, toMs), exception dates included, stopping after `max` of them. */
function scheduleEdges(
  schedule: Schedule,
  fromMs: number,
  toMs: number,
  max: number,
): { edges: Edge[]; toMs: number; truncated: boolean } {
  const edges: Edge[] = [];
  for (let a = fromMs; a < toMs; a += CHUNK_MS) {
    const b = Math.min(toMs, a + CHUNK_MS);
    edges.push(...schedule.edges(a - 1, b - 1, { includeSkipped: true }));
    const first = edges[max];
    if (first) return { edges: edges.slice(0, max), toMs: Date.parse(first.at), truncated: true };
  }
  return { edges, toMs, truncated: false };
}

/**
 * Whether the cluster's plan is the schedule's own over the range (no override, no install grace period in it),
 * so it can share the schedule's edges instead of replaying its own.
 */
function followsSchedule(ctx: PlannerContext, facts: ClusterFacts<unknown>, fromMs: number): boolean {
  if (facts.overrides.length > 0) return false;
  const installed = installedAtMs(facts.cd);
  return ctx.installGraceMs <= 0 || installed === undefined || installed + ctx.installGraceMs <= fromMs;
}

interface Building<R> {
  edge: Edge;
  acted: R[];
  skipped: Array<R & { reason: string; message: string }>;
  /** Clusters that follow the schedule and act here, counted but not listed (counts only). */
  unlisted: number;
}

const size = (b: Building<unknown>) => b.acted.length + b.skipped.length + b.unlisted;

export function planRange<R extends object>(
  ctx: PlannerContext,
  clusters: Array<ClusterFacts<R>>,
  fromMs: number,
  toMs: number,
  caps: RangeCaps,
): RangePlan<R> {
  const maxEntries = caps.countsOnly ? Infinity : caps.maxClusterEntries;
  const targeted = clusters.filter((c) => !c.excluded);
  const scheduled = scheduleEdges(ctx.schedule, fromMs, toMs, caps.maxEdges);
  let endMs = scheduled.toMs;
  let truncated = scheduled.truncated;
  // Every targeted cluster appears once on every edge not skipped by date: stop before the entries overflow.
  let entries = 0;
  for (const e of scheduled.edges) {
    if (e.skipped) continue;
    if (entries > 0 && entries + targeted.length > maxEntries) {
      endMs = Date.parse(e.at);
      truncated = true;
      break;
    }
    entries += targeted.length;
  }

  const byKey = new Map<string, Building<R>>();
  const entry = (e: Edge): Building<R> => {
    const key = `${e.at}|${e.action}`;
    let found = byKey.get(key);
    if (!found) {
      const { skipped, skipCode, ...rest } = e;
      found = {
        edge: { ...rest, ...(skipCode === 'ExceptionDate' ? { skipped, skipCode } : {}) },
        acted: [],
        skipped: [],
        unlisted: 0,
      };
      byKey.set(key, found);
    }
    return found;
  };
  const inRange = scheduled.edges.filter((e) => Date.parse(e.at) < endMs);
  for (const e of inRange) entry(e);
  for (const facts of targeted) {
    if (followsSchedule(ctx, facts, fromMs)) {
      for (const e of inRange) {
        if (e.skipped) continue;
        const target = entry(e);
        if (caps.countsOnly) target.unlisted += 1;
        else target.acted.push(facts.ref);
      }
      continue;
    }
    for (const e of planCluster(planInput(ctx, facts), fromMs - 1, endMs - 1).edges) {
      if (e.skipCode === 'ExceptionDate') continue;
      const target = entry(e);
      if (e.skipped) target.skipped.push({ ...facts.ref, reason: e.skipCode ?? 'Skipped', message: e.skipped });
      else target.acted.push(facts.ref);
    }
  }

  // Cluster-specific edges (a keep-awake or the grace period lapsing) add entries: apply the caps once more.
  const all = [...byKey.values()].sort((a, b) => a.edge.at.localeCompare(b.edge.at));
  const kept: Array<Building<R>> = [];
  entries = 0;
  for (const b of all) {
    if (kept.length >= caps.maxEdges || (kept.length > 0 && entries + size(b) > maxEntries)) {
      endMs = Date.parse(b.edge.at);
      truncated = true;
      // The range ends before this instant: nothing at it is shown, so starting from it misses nothing.
      while (kept.at(-1)?.edge.at === b.edge.at) kept.pop();
      break;
    }
    kept.push(b);
    entries += size(b);
  }
  const edges = kept.map((b): RangeEdge<R> => ({
    ...b.edge,
    counts: { acted: b.acted.length + b.unlisted, skipped: b.skipped.length },
    ...(caps.countsOnly ? {} : { clusters: b.acted, skippedClusters: b.skipped }),
  }));
  return { edges, toMs: endMs, truncated };
}
