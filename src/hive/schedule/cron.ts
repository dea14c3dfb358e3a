// Standard five-field cron (minute hour day-of-month month day-of-week), evaluated on the wall clock of the
// schedule's zone. Expanding per local date (instead of stepping instants) is what makes DST exact: every
// matching wall time maps to exactly one instant (see local-time.ts).
import { invalid } from '../errors.js';
import { weekdayOf, type LocalDate } from './local-time.js';

export interface CronSpec {
  source: string;
  minutes: number[];
  hours: number[];
  daysOfMonth: Set<number>;
  months: Set<number>;
  /** 0 = Sunday .. 6 = Saturday (7 is folded into 0). */
  daysOfWeek: Set<number>;
  /** Vixie cron: when both day fields are restricted, a day matches if either matches. */
  domRestricted: boolean;
  dowRestricted: boolean;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

function parseField(
  field: string,
  min: number,
  max: number,
  names: string[] | undefined,
  path: string,
  what: string,
): number[] {
  const values = new Set<number>();
  const value = (token: string): number => {
    const lower = token.toLowerCase();
    const named = names?.indexOf(lower) ?? -1;
    if (named >= 0) return named + (names === MONTHS ? 1 : 0);
    if (!/^\d+$/.test(token)) throw invalid(path, `"${token}" is not a valid ${what}`);
    const n = Number(token);
    if (n < min || n > max) throw invalid(path, `${what} ${n} is outside ${min}-${max}`);
    return n;
  };
  for (const part of field.split(',')) {
    const [range = '', stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw invalid(path, `step "${stepText}" must be a positive integer`);
    let lo: number;
    let hi: number;
    if (range === '*') [lo, hi] = [min, max];
    else if (range.includes('-')) {
      const [a = '', b = ''] = range.split('-');
      [lo, hi] = [value(a), value(b)];
      if (lo > hi) throw invalid(path, `range "${range}" runs backwards`);
    } else {
      lo = value(range);
      hi = stepText === undefined ? lo : max;
    }
    for (let n = lo; n <= hi; n += step) values.add(n);
  }
  return [...values].sort((a, b) => a - b);
}

/** Parse a five-field cron expression; `path` names the field in errors (e.g. `cron.hibernate`). */
export function parseCron(source: string, path: string): CronSpec {
  const fields = source.trim().split(/\s+/);
  if (fields.length !== 5) {
    throw invalid(
      path,
      `"${source}" must have five fields (minute hour day-of-month month day-of-week); seconds are not supported`,
    );
  }
  const [mi = '', h = '', dom = '', mon = '', dow = ''] = fields;
  return {
    source,
    minutes: parseField(mi, 0, 59, undefined, path, 'minute'),
    hours: parseField(h, 0, 23, undefined, path, 'hour'),
    daysOfMonth: new Set(parseField(dom, 1, 31, undefined, path, 'day of month')),
    months: new Set(parseField(mon, 1, 12, MONTHS, path, 'month')),
    daysOfWeek: new Set(parseField(dow, 0, 7, DAYS, path, 'day of week').map((d) => d % 7)),
    domRestricted: !dom.startsWith('*'),
    dowRestricted: !dow.startsWith('*'),
  };
}

function dayMatches(cron: CronSpec, date: LocalDate): boolean {
  if (!cron.months.has(date.month)) return false;
  const dom = cron.daysOfMonth.has(date.day);
  const dow = cron.daysOfWeek.has(weekdayOf(date) % 7);
  if (cron.domRestricted && cron.dowRestricted) return dom || dow;
  return dom && dow;
}

/** Minutes of the local day at which `cron` fires on `date`, ascending. */
export function cronMinutesOn(cron: CronSpec, date: LocalDate): number[] {
  if (!dayMatches(cron, date)) return [];
  return cron.hours.flatMap((h) => cron.minutes.map((m) => h * 60 + m));
}
