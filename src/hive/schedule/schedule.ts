// A compiled schedule: desired power state at any instant and the exact actions between two instants.
// Everything reduces to one sequence of raw edges (window starts/ends or cron firings on the zone's wall
// clock); exception dates and holidays mark some of them skipped; the desired state at an instant is the
// action of the last edge not skipped. So preview, catch-up and the sweep can never disagree.
import { Invalid } from '../errors.js';
import { cronMinutesOn, parseCron, type CronSpec } from './cron.js';
import { addDays, formatDate, localDateOf, localIso, resolveLocal, weekdayOf, type LocalDate } from './local-time.js';
import {
  actionState,
  WEEKDAYS,
  type Desired,
  type Edge,
  type ExceptionMode,
  type PowerAction,
  type RunWindow,
  type ScheduleSpec,
} from './types.js';
import { minutesOf, scheduleSpecIssues } from './validate-spec.js';

const DAY = 86_400_000;

export interface RawEdge {
  atMs: number;
  action: PowerAction;
  reason: string;
  /** The local date the rule fired for (what exception dates are matched against). */
  date: string;
  skipped?: string;
}

export interface Schedule {
  readonly spec: ScheduleSpec;
  /** Edges in (fromMs, toMs] that are acted on; with `includeSkipped`, the skipped ones too (marked). */
  edges(fromMs: number, toMs: number, opts?: { includeSkipped?: boolean }): Edge[];
  /** Raw edges in (fromMs, toMs], each with `skipped` set when an exception date or holiday drops it. */
  rawEdges(fromMs: number, toMs: number): RawEdge[];
  desiredState(atMs: number): Desired;
  /** The last edge that was acted on at or before `atMs`. */
  lastEdge(atMs: number): Edge | undefined;
  /** The next edge that will be acted on after `atMs` (searching up to a year ahead). */
  nextEdge(atMs: number): Edge | undefined;
  toEdge(raw: RawEdge): Edge;
}

export function describeDays(days: string[]): string {
  const idx = [...new Set(days)].map((d) => WEEKDAYS.indexOf(d as (typeof WEEKDAYS)[number])).sort((a, b) => a - b);
  const contiguous = idx.length > 2 && idx.every((v, i) => i === 0 || v === (idx[i - 1] ?? 0) + 1);
  if (contiguous) return `${WEEKDAYS[idx[0] ?? 0]}-${WEEKDAYS[idx.at(-1) ?? 0]}`;
  return idx.map((i) => WEEKDAYS[i]).join(',');
}

function withNote(reason: string, note?: string): string {
  return note ? `${reason}; ${note}` : reason;
}

interface Interval {
  start: number;
  end: number;
  startReason: string;
  endReason: string;
  startDate: string;
  endDate: string;
}

function windowIntervals(windows: RunWindow[], zone: string, first: LocalDate, last: LocalDate): Interval[] {
  const out: Interval[] = [];
  for (let date = first; formatDate(date) <= formatDate(last); date = addDays(date, 1)) {
    const weekday = WEEKDAYS[weekdayOf(date) - 1];
    for (const w of windows) {
      if (!weekday || !w.days.includes(weekday)) continue;
      const startMin = minutesOf(w.start);
      const endMin = minutesOf(w.end);
      const overnight = endMin < startMin;
      const endDate = overnight ? addDays(date, 1) : date;
      const s = resolveLocal(date, startMin, zone);
      const e = resolveLocal(endDate, endMin, zone);
      if (e.at <= s.at) continue; // the whole window fell into a DST gap on this date
      const label = `window ${describeDays(w.days)} ${w.start}-${w.end}`;
      out.push({
        start: s.at,
        end: e.at,
        startReason: withNote(`${label} starts`, s.note),
        endReason: withNote(`${label} ends`, e.note),
        startDate: formatDate(date),
        endDate: formatDate(endDate),
      });
    }
  }
  out.sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const iv of out) {
    const prev = merged.at(-1);
    // Overlapping or touching windows are one run period: no hibernate-then-resume at the seam.
    if (prev && iv.start <= prev.end) {
      if (iv.end > prev.end) Object.assign(prev, { end: iv.end, endReason: iv.endReason, endDate: iv.endDate });
    } else merged.push({ ...iv });
  }
  return merged;
}

function cronEdges(crons: Array<[PowerAction, CronSpec]>, zone: string, first: LocalDate, last: LocalDate): RawEdge[] {
  const byInstant = new Map<number, RawEdge>();
  for (let date = first; formatDate(date) <= formatDate(last); date = addDays(date, 1)) {
    for (const [action, cron] of crons) {
      for (const minute of cronMinutesOn(cron, date)) {
        const r = resolveLocal(date, minute, zone);
        const existing = byInstant.get(r.at);
        // Several firings in one DST gap land on the same instant: one action. When hibernate and resume
        // land on the same instant, resume wins (a running cluster is the safe side of a conflict).
        if (existing && (existing.action === action || existing.action === 'resume')) continue;
        byInstant.set(r.at, {
          atMs: r.at,
          action,
          reason: withNote(`cron ${action} "${cron.source}"`, r.note),
          date: formatDate(date),
        });
      }
    }
  }
  return [...byInstant.values()].sort((a, b) => a.atMs - b.atMs);
}

function exceptionIndex(spec: ScheduleSpec): Map<string, { mode: ExceptionMode; why: string }> {
  const index = new Map<string, { mode: ExceptionMode; why: string }>();
  for (const list of spec.holidays ?? []) {
    for (const date of list.dates)
      index.set(date, { mode: list.mode, why: `holiday list "${list.name}" (${list.mode}) on ${date}` });
  }
  // Explicit exception dates win over holiday lists.
  for (const x of spec.exceptions ?? []) {
    index.set(x.date, { mode: x.mode, why: `exception ${x.date} (${x.mode})${x.reason ? `: ${x.reason}` : ''}` });
  }
  return index;
}

export function compileSchedule(spec: ScheduleSpec): Schedule {
  const issues = scheduleSpecIssues(spec);
  if (issues.length > 0) throw new Invalid(issues.map((i) => `${i.field}: ${i.reason}`).join('; '), issues);
  const zone = spec.timeZone;
  const crons: Array<[PowerAction, CronSpec]> = spec.cron
    ? [
        ['hibernate', parseCron(spec.cron.hibernate, 'cron.hibernate')],
        ['resume', parseCron(spec.cron.resume, 'cron.resume')],
      ]
    : [];
  const exceptions = exceptionIndex(spec);

  // A sweep or preview asks the same questions once per cluster; the answers depend only on the arguments.
  const memo = <A extends number[], T>(fn: (...args: A) => T) => {
    const cache = new Map<string, T>();
    return (...args: A): T => {
      const key = args.join('|');
      let value = cache.get(key);
      if (value === undefined) {
        if (cache.size >= 512) cache.clear();
        value = fn(...args);
        cache.set(key, value);
      }
      return value;
    };
  };

  const computeRawEdges = (fromMs: number, toMs: number): RawEdge[] => {
    // Windows last at most ~25h, so two days of padding catch every interval that touches the range.
    const first = addDays(localDateOf(fromMs, zone), -2);
    const last = addDays(localDateOf(toMs, zone), 1);
    let edges: RawEdge[];
    if (spec.windows?.length) {
      edges = windowIntervals(spec.windows, zone, first, last).flatMap((iv): RawEdge[] => [
        { atMs: iv.start, action: 'resume', reason: iv.startReason, date: iv.startDate },
        { atMs: iv.end, action: 'hibernate', reason: iv.endReason, date: iv.endDate },
      ]);
    } else edges = cronEdges(crons, zone, first, last);
    return edges
      .filter((e) => e.atMs > fromMs && e.atMs <= toMs)
      .map((e) => {
        const x = exceptions.get(e.date);
        if (x?.mode === 'skipHibernation' && e.action === 'hibernate') return { ...e, skipped: x.why };
        if (x?.mode === 'keepHibernated' && e.action === 'resume') return { ...e, skipped: x.why };
        return e;
      });
  };

  const rawEdges = memo(computeRawEdges);

  const toEdge = (raw: RawEdge): Edge => ({
    at: new Date(raw.atMs).toISOString(),
    local: localIso(raw.atMs, zone),
    action: raw.action,
    reason: raw.reason,
    ...(raw.skipped ? { skipped: raw.skipped, skipCode: 'ExceptionDate' as const } : {}),
  });

  const lastActed = memo((atMs: number): RawEdge | null => {
    for (const days of [8, 32, 128, 400]) {
      const acted = rawEdges(atMs - days * DAY, atMs).filter((e) => !e.skipped);
      if (acted.length > 0) return acted.at(-1) ?? null;
    }
    return null;
  });

  const desiredState = memo((atMs: number): Desired => {
    const last = lastActed(atMs);
    if (last) {
      const edge = toEdge(last);
      return {
        state: actionState(last.action),
        since: edge,
        reason: `${last.action} at ${edge.local}: ${last.reason}`,
      };
    }
    if (spec.windows?.length) {
      const d = localDateOf(atMs, zone);
      const covered = windowIntervals(spec.windows, zone, addDays(d, -2), addDays(d, 1)).some(
        (iv) => iv.start <= atMs && atMs < iv.end,
      );
      return covered
        ? { state: 'Running', reason: 'the windows cover every hour of the week' }
        : { state: 'Hibernating', reason: 'no window has started in the past year' };
    }
    return { state: 'Running', reason: 'no scheduled action in the past year' };
  });

  // Every edge not skipped is acted on, even when the schedule is already in that state: people reason in
  // window edges ("resume at 07:00"), and a cluster someone hibernated by hand overnight resumes at 07:00.
  const edges = (fromMs: number, toMs: number, opts?: { includeSkipped?: boolean }): Edge[] =>
    rawEdges(fromMs, toMs)
      .filter((raw) => opts?.includeSkipped || !raw.skipped)
      .map(toEdge);

  const nextEdge = (atMs: number): Edge | undefined => {
    for (const days of [8, 32, 128, 400]) {
      const found = edges(atMs, atMs + days * DAY)[0];
      if (found) return found;
    }
    return undefined;
  };

  return {
    spec,
    edges,
    rawEdges,
    desiredState,
    lastEdge: (atMs) => {
      const raw = lastActed(atMs);
      return raw ? toEdge(raw) : undefined;
    },
    nextEdge,
    toEdge,
  };
}
