// What the kill, SIGTERM and flush drills share (issue 14, "Drills"): the roles' environment that lets a new worker
// take a killed worker's jobs back at once, the one-line report each drill prints for `npm run drills` to collect,
// roles whose clock is a little before a whole minute and a schedule whose hibernate edge is that minute, and the jobs
// of a namespace still not ended. Everything is read from outside (the API, the hub), so the drills hold whatever the
// sweep's insides look like.
import { expect } from 'vitest';
import type { JobView } from '../../src/services/ports.js';
import type { ApiResource } from '../../src/sim/client/index.js';
import { STATE_NS, type Drill, type Tally } from './harness.js';
import { QUICK_ENV } from './queued-hibernates.js';

/**
 * A killed worker's jobs go back to the queue once their lock lapses: 2 s, checked every second (the defaults, 60 s
 * and 30 s, would only make the drill wait); no shutdown grace, so a SIGTERM'd worker hands its jobs back at once.
 */
export const CRASH_ENV = {
  ...QUICK_ENV,
  BEEKEEPER_JOB_LOCK_MS: '2000',
  BEEKEEPER_JOB_STALLED_INTERVAL_MS: '1000',
  BEEKEEPER_SHUTDOWN_GRACE_MS: '0',
};

export const SCHEDULES: ApiResource = {
  group: 'beekeeper.io',
  version: 'v1beta1',
  plural: 'hibernationschedules',
  kind: 'HibernationSchedule',
  namespaced: true,
};

/**
 * The drill's result as one line, `DRILL {"drill":…,"expected":…,"done":…,"duplicated":…,"lost":…,…}`, for the
 * drills report to collect from the output (and for a reader of the log).
 */
export function reportDrill(drill: string, t: Tally, extra: Record<string, unknown> = {}): void {
  console.log(`DRILL ${JSON.stringify({ drill, ...counts(t), ...extra })}`);
}

/** A tally's figures without its examples: `{expected, done, duplicated, lost}` (and `unexpected` when any). */
export function counts({ expected, done, duplicated, lost, unexpected }: Tally) {
  return { expected, done, duplicated, lost, ...(unexpected ? { unexpected } : {}) };
}

export interface Edge {
  /** The hibernate edge, a whole minute in UTC. */
  at: Date;
  schedule: string;
}

/** How far before their next whole minute the roles' clocks are set when they start: their start-up, then 5 s. */
const EDGE_LEAD_MS = 20_000;

/**
 * The drill's roles (startDrill with `deferRoles`), their clocks set so that a whole minute, a schedule's edge, comes
 * EDGE_LEAD_MS after they are asked to start: edges are whole minutes, and an edge from before the schedule existed is
 * never acted on, so on the real clock a drill would wait up to a minute for one. Should the roles take longer than
 * EDGE_LEAD_MS less 5 s to start, the edge is the minute after: the drill is slower, not different.
 */
export async function startRolesBeforeEdge(drill: Drill): Promise<void> {
  const now = Date.now();
  const minute = Math.ceil((now + EDGE_LEAD_MS) / 60_000) * 60_000;
  await drill.startRoles({ clockOffsetMs: minute - EDGE_LEAD_MS - now });
}

/**
 * A schedule hibernating `namespaces` at the roles' next whole minute at least 5 s away (`drill.now()`: see
 * startRolesBeforeEdge), resuming half a day later.
 */
export async function hibernateAtNextMinute(drill: Drill, name: string, namespaces: string[]): Promise<Edge> {
  const edgeMs = Math.ceil((drill.now() + 5_000) / 60_000) * 60_000;
  const at = new Date(edgeMs);
  const resume = new Date(edgeMs + 12 * 3_600_000);
  const created = await drill.api('POST', '/v1/schedules', {
    name,
    timeZone: 'UTC',
    cron: {
      hibernate: `${at.getUTCMinutes()} ${at.getUTCHours()} * * *`,
      resume: `${resume.getUTCMinutes()} ${resume.getUTCHours()} * * *`,
    },
    targets: { namespaces },
    // The drill's clusters were installed a moment ago.
    safety: { allowHibernationInFirstDay: { reason: 'drill clusters, no certificates to rotate' } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { at, schedule: name };
}

/** A schedule that says "hibernated" now (its hibernate edge passed a minute ago), for a manual run. */
export async function hibernatedNow(drill: Drill, name: string, namespaces: string[]): Promise<void> {
  const past = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
  const resume = new Date(past.getTime() + 12 * 3_600_000);
  const created = await drill.api('POST', '/v1/schedules', {
    name,
    timeZone: 'UTC',
    cron: {
      hibernate: `${past.getUTCMinutes()} ${past.getUTCHours()} * * *`,
      resume: `${resume.getUTCMinutes()} ${resume.getUTCHours()} * * *`,
    },
    targets: { namespaces },
    safety: { allowHibernationInFirstDay: { reason: 'drill clusters, no certificates to rotate' } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

export interface LastSweep {
  edge?: string;
  jobId?: string;
  finishedAt?: string;
  acted?: number;
  skipped?: number;
  failed?: number;
}

export async function lastSweepOf(drill: Drill, schedule: string): Promise<LastSweep | undefined> {
  return (await drill.kube().get(SCHEDULES, STATE_NS, schedule))?.status?.lastSweep;
}

/** Jobs Redis holds that are not over (waiting, delayed, prioritized, active, waiting-children) or failed. */
export async function openJobs(drill: Drill, match: (job: JobView) => boolean): Promise<JobView[]> {
  const open: JobView[] = [];
  for (const state of ['waiting', 'delayed', 'prioritized', 'active', 'waiting-children', 'failed'] as const) {
    const res = await drill.api<{ items: JobView[] }>('GET', `/v1/jobs?state=${state}&limit=500`);
    if (res.status !== 200) continue; // a state this version does not list
    open.push(...res.body.items.filter(match));
  }
  return open;
}

export const jobsOf = (jobs: JobView[]) => jobs.map((j) => `${j.type} ${j.id} ${j.state}`);
