// Wall-clock times in an IANA zone -> instants, with the DST rules schedules promise:
// - a wall time that does not exist (spring forward) happens once, at the first valid instant after the gap;
// - a wall time that exists twice (fall back) happens once, at its first occurrence.
// Luxon alone shifts gap times by the gap length (02:30 -> 03:30) and picks the *later* occurrence of an
// ambiguous time, which would hibernate an hour late on fall-back nights; so the resolution is done here.
import { DateTime } from 'luxon';

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export interface ResolvedTime {
  /** Milliseconds since the epoch. */
  at: number;
  /** Why the instant differs from the wall time asked for, if it does. */
  note?: string;
}

const MINUTE = 60_000;

/** Offset of `zone` at instant `ms`, in minutes. */
function offsetAt(ms: number, zone: string): number {
  return DateTime.fromMillis(ms, { zone }).offset;
}

export function isValidZone(zone: string): boolean {
  return DateTime.now().setZone(zone).isValid;
}

/** The instant at which the wall clock in `zone` shows `date` `minuteOfDay` (0..1440; 1440 is next day 00:00). */
export function resolveLocal(date: LocalDate, minuteOfDay: number, zone: string): ResolvedTime {
  const wallAsUtc = Date.UTC(date.year, date.month - 1, date.day) + minuteOfDay * MINUTE;
  // Candidate offsets: the zone's offsets a day either side cover every real transition.
  const offsets = new Set([
    offsetAt(wallAsUtc - 86_400_000, zone),
    offsetAt(wallAsUtc, zone),
    offsetAt(wallAsUtc + 86_400_000, zone),
  ]);
  const valid = [...offsets]
    .map((off) => wallAsUtc - off * MINUTE)
    .filter((ms) => offsetAt(ms, zone) * MINUTE === wallAsUtc - ms)
    .sort((a, b) => a - b);
  const first = valid[0];
  if (first !== undefined) {
    return valid.length > 1
      ? { at: first, note: `${hhmm(minuteOfDay)} occurs twice on this date in ${zone}; the first occurrence is used` }
      : { at: first };
  }
  // In a gap: find the transition instant, the first instant whose wall time is past the asked-for time.
  const sorted = [...offsets].sort((a, b) => a - b);
  let lo = wallAsUtc - (sorted.at(-1) ?? 0) * MINUTE; // before the transition
  let hi = wallAsUtc - (sorted[0] ?? 0) * MINUTE; // after it
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2);
    if (mid + offsetAt(mid, zone) * MINUTE >= wallAsUtc) hi = mid;
    else lo = mid;
  }
  // Transitions fall on whole seconds and hi is within a second after it.
  const at = Math.floor(hi / 1000) * 1000;
  const shown = DateTime.fromMillis(at, { zone }).toFormat('HH:mm');
  return {
    at,
    note: `${hhmm(minuteOfDay)} does not exist on this date in ${zone} (clocks jump forward); runs at ${shown}`,
  };
}

export function hhmm(minuteOfDay: number): string {
  const h = Math.floor(minuteOfDay / 60);
  const m = minuteOfDay % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** Local calendar date of instant `ms` in `zone`. */
export function localDateOf(ms: number, zone: string): LocalDate {
  const d = DateTime.fromMillis(ms, { zone });
  return { year: d.year, month: d.month, day: d.day };
}

/** The wall clock of `zone` at instant `ms`: local date, minute of the day, and the seconds and milliseconds past it. */
export function wallClockOf(ms: number, zone: string): { date: LocalDate; minuteOfDay: number; restMs: number } {
  const d = DateTime.fromMillis(ms, { zone });
  return {
    date: { year: d.year, month: d.month, day: d.day },
    minuteOfDay: d.hour * 60 + d.minute,
    restMs: d.second * 1000 + d.millisecond,
  };
}

/** `date` plus `days` calendar days (zone independent). */
export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** ISO weekday, 1 = Monday .. 7 = Sunday. */
export function weekdayOf(date: LocalDate): number {
  const dow = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
  return dow === 0 ? 7 : dow;
}

export function formatDate(date: LocalDate): string {
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/** Instants already rendered, per zone: a sweep renders the same edge once per cluster (10,000 times). */
const rendered = new Map<string, string>();
const RENDERED_MAX = 4096;

/** ISO timestamp of `ms` in `zone`, with its offset, e.g. `2026-03-29T03:00:00.000+02:00`. */
export function localIso(ms: number, zone: string): string {
  // Luxon's zone offset lookup (Intl) is most of a sweep's planning time at 10,000 clusters; the answer is pure.
  const key = `${zone} ${ms}`;
  let iso = rendered.get(key);
  if (iso === undefined) {
    iso = DateTime.fromMillis(ms, { zone }).toISO() ?? new Date(ms).toISOString();
    if (rendered.size >= RENDERED_MAX) rendered.clear();
    rendered.set(key, iso);
  }
  return iso;
}
