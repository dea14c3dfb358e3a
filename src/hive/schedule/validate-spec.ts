// Checks a schedule spec field by field; every problem names its field (`windows[0].start`), so the API can
// answer 400 with all of them at once instead of the first.
import { Invalid, type FieldIssue } from '../errors.js';
import { parseCron } from './cron.js';
import { isValidZone } from './local-time.js';
import { WEEKDAYS, type ScheduleSpec } from './types.js';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const MODES = ['skipHibernation', 'keepHibernated'];

export function minutesOf(time: string): number {
  const [h = '0', m = '0'] = time.split(':');
  return Number(h) * 60 + Number(m);
}

export function isValidDate(date: string): boolean {
  if (!DATE.test(date)) return false;
  const d = new Date(`${date}T00:00:00Z`);
  return d.toISOString().startsWith(date);
}

export function scheduleSpecIssues(spec: ScheduleSpec, prefix = ''): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const add = (field: string, reason: string) => issues.push({ field: prefix + field, reason });
  if (typeof spec.timeZone !== 'string' || !isValidZone(spec.timeZone)) {
    add('timeZone', `"${String(spec.timeZone)}" is not an IANA time zone (e.g. Europe/Berlin)`);
  }
  const hasWindows = (spec.windows?.length ?? 0) > 0;
  if (hasWindows === Boolean(spec.cron)) add(hasWindows ? 'cron' : 'windows', 'set exactly one of windows or cron');
  spec.windows?.forEach((w, i) => {
    if (!Array.isArray(w.days) || w.days.length === 0) add(`windows[${i}].days`, 'list at least one day');
    w.days?.forEach((d, j) => {
      if (!WEEKDAYS.includes(d)) add(`windows[${i}].days[${j}]`, `"${d}" is not one of ${WEEKDAYS.join(', ')}`);
    });
    if (!TIME.test(w.start) || w.start === '24:00')
      add(`windows[${i}].start`, `"${w.start}" is not HH:MM (00:00-23:59)`);
    if (!TIME.test(w.end)) add(`windows[${i}].end`, `"${w.end}" is not HH:MM (00:00-24:00)`);
    if (w.start === w.end)
      add(`windows[${i}].end`, 'a window cannot start and end at the same time (use 00:00-24:00 for a whole day)');
  });
  if (spec.cron) {
    for (const key of ['hibernate', 'resume'] as const) {
      try {
        parseCron(String(spec.cron[key] ?? ''), `${prefix}cron.${key}`);
      } catch (e) {
        if (e instanceof Invalid) issues.push(...e.fields);
        else throw e;
      }
    }
  }
  spec.exceptions?.forEach((x, i) => {
    if (!isValidDate(x.date)) add(`exceptions[${i}].date`, `"${x.date}" is not a date YYYY-MM-DD`);
    if (!MODES.includes(x.mode)) add(`exceptions[${i}].mode`, `must be one of ${MODES.join(', ')}`);
  });
  spec.holidays?.forEach((h, i) => {
    if (!h.name) add(`holidays[${i}].name`, 'required');
    if (!MODES.includes(h.mode)) add(`holidays[${i}].mode`, `must be one of ${MODES.join(', ')}`);
    h.dates?.forEach((d, j) => {
      if (!isValidDate(d)) add(`holidays[${i}].dates[${j}]`, `"${d}" is not a date YYYY-MM-DD`);
    });
  });
  return issues;
}
