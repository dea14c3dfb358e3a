// The range a preview covers: from `from` (now by default; a local date at 00:00 in the schedule's zone, or an
// RFC 3339 instant) for `days` calendar days of that zone, so `from=2027-03-01&days=31` is all of March on the
// zone's clock, DST change included. Ranges are half-open, [from, to): an edge at 00:00 on `from` is in it.
import { invalid } from '../errors.js';
import { addDays, resolveLocal, wallClockOf, type LocalDate } from './local-time.js';
import { isValidDate } from './validate-spec.js';

const DAY = 86_400_000;
export const DEFAULT_PREVIEW_DAYS = 7;
export const MAX_PREVIEW_DAYS = 366;
/** How far from now `from` may lie, either way. */
export const MAX_PREVIEW_FROM_YEARS = 5;

// RFC 3339 section 5.6 date-time: the offset is required (a time without one names no instant). A space before
// the offset can only be a `+` that a query string decoded (`+01:00` typed into a URL), so it is read as one.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+ -](\d{2}):(\d{2}))$/;

export interface PreviewRange {
  fromMs: number;
  toMs: number;
}

function parseInstant(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [, , , , hh = '', mm = '', ss = '', , , oh = '00', om = '00'] = m;
  if (
    !isValidDate(text.slice(0, 10)) ||
    Number(hh) > 23 ||
    Number(mm) > 59 ||
    Number(ss) > 59 ||
    Number(oh) > 23 ||
    Number(om) > 59
  )
    return undefined;
  const ms = Date.parse(text.toUpperCase().replace(' ', '+'));
  return Number.isNaN(ms) ? undefined : ms;
}

function dateOf(text: string): LocalDate {
  return { year: Number(text.slice(0, 4)), month: Number(text.slice(5, 7)), day: Number(text.slice(8, 10)) };
}

/** Throws Invalid naming `from` or `days`. */
export function previewRange(query: { from?: string; days?: number }, zone: string, nowMs: number): PreviewRange {
  const days = query.days ?? DEFAULT_PREVIEW_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_PREVIEW_DAYS)
    throw invalid('days', `must be a whole number of days from 1 to ${MAX_PREVIEW_DAYS}`);
  let fromMs: number;
  let toMs: number;
  if (query.from === undefined) {
    fromMs = nowMs;
  } else if (/^\d{4}-\d{2}-\d{2}$/.test(query.from)) {
    if (!isValidDate(query.from)) throw invalid('from', `"${query.from}" is not a calendar date`);
    const date = dateOf(query.from);
    // 00:00 may not exist where clocks jump at midnight: the day then starts at the first instant after the gap.
    fromMs = resolveLocal(date, 0, zone).at;
    toMs = resolveLocal(addDays(date, days), 0, zone).at;
  } else {
    const parsed = parseInstant(query.from);
    if (parsed === undefined)
      throw invalid(
        'from',
        `"${query.from.slice(0, 64)}" is neither a date YYYY-MM-DD nor an RFC 3339 time such as 2027-03-01T00:00:00Z`,
      );
    fromMs = parsed;
  }
  const limit = MAX_PREVIEW_FROM_YEARS * 366 * DAY;
  if (Math.abs(fromMs - nowMs) > limit) {
    throw invalid(
      'from',
      `must lie within ${MAX_PREVIEW_FROM_YEARS} years of now ` +
        `(${new Date(nowMs - limit).toISOString().slice(0, 10)} to ` +
        `${new Date(nowMs + limit).toISOString().slice(0, 10)})`,
    );
  }
  toMs ??= sameWallTimeLater(fromMs, days, zone);
  return { fromMs, toMs };
}

/** The instant `days` calendar days after `ms` at the same wall time in `zone` (DST resolved as for schedules). */
function sameWallTimeLater(ms: number, days: number, zone: string): number {
  const wall = wallClockOf(ms, zone);
  return resolveLocal(addDays(wall.date, days), wall.minuteOfDay, zone).at + wall.restMs;
}
