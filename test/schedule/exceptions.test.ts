import { describe, expect, it } from 'vitest';
import { compileSchedule, Invalid } from './helpers.js';

const ms = (iso: string) => Date.parse(iso);
const windows = [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'] as const, start: '08:00', end: '18:00' }].map((w) => ({
  ...w,
  days: [...w.days],
}));

describe('exception dates and holidays', () => {
  it('skipHibernation keeps clusters up through that evening; the next morning resume changes nothing', () => {
    const s = compileSchedule({
      timeZone: 'Europe/Berlin',
      windows,
      exceptions: [{ date: '2026-06-03', mode: 'skipHibernation', reason: 'release night' }],
    });
    const all = s.edges(ms('2026-06-03T00:00:00Z'), ms('2026-06-05T00:00:00Z'), { includeSkipped: true });
    expect(all.map((e) => [e.action, e.local, e.skipped ?? null])).toEqual([
      ['resume', '2026-06-03T08:00:00.000+02:00', null],
      ['hibernate', '2026-06-03T18:00:00.000+02:00', 'exception 2026-06-03 (skipHibernation): release night'],
      ['resume', '2026-06-04T08:00:00.000+02:00', null],
      ['hibernate', '2026-06-04T18:00:00.000+02:00', null],
    ]);
    expect(s.desiredState(ms('2026-06-03T23:00:00Z')).state).toBe('Running');
    expect(s.edges(ms('2026-06-03T00:00:00Z'), ms('2026-06-05T00:00:00Z'))).toHaveLength(3);
  });

  it('a holiday list with keepHibernated skips the resume that day; an explicit exception wins over the list', () => {
    const s = compileSchedule({
      timeZone: 'Europe/Berlin',
      windows,
      holidays: [{ name: 'de-bw', mode: 'keepHibernated', dates: ['2026-12-24', '2026-12-25'] }],
      exceptions: [{ date: '2026-12-24', mode: 'skipHibernation' }],
    });
    // The 24th's exception kept clusters up overnight; the 25th skips only its resume, so they stay up until
    // that evening's hibernation.
    expect(s.desiredState(ms('2026-12-24T12:00:00Z')).state).toBe('Running');
    expect(s.desiredState(ms('2026-12-25T12:00:00Z')).state).toBe('Running');
    expect(s.desiredState(ms('2026-12-26T12:00:00Z')).state).toBe('Hibernating');
    const edges = s.edges(ms('2026-12-24T00:00:00Z'), ms('2026-12-29T00:00:00Z'), { includeSkipped: true });
    const christmas = edges.find((e) => e.local.startsWith('2026-12-25T08:00'));
    expect(christmas?.skipped).toBe('holiday list "de-bw" (keepHibernated) on 2026-12-25');
    expect(edges.filter((e) => !e.skipped).map((e) => [e.action, e.local])).toEqual([
      ['resume', '2026-12-24T08:00:00.000+01:00'],
      ['hibernate', '2026-12-25T18:00:00.000+01:00'],
      ['resume', '2026-12-28T08:00:00.000+01:00'],
      ['hibernate', '2026-12-28T18:00:00.000+01:00'],
    ]);
  });

  it('a keepHibernated date leaves clusters down from the previous evening through the next morning', () => {
    const s = compileSchedule({
      timeZone: 'UTC',
      windows,
      holidays: [{ name: 'summer', mode: 'keepHibernated', dates: ['2026-08-04', '2026-08-05'] }],
    });
    expect(s.desiredState(ms('2026-08-05T12:00:00Z')).state).toBe('Hibernating');
    expect(s.desiredState(ms('2026-08-06T12:00:00Z')).state).toBe('Running');
  });

  it('finds the last action months back (a yearly cron)', () => {
    const s = compileSchedule({ timeZone: 'UTC', cron: { hibernate: '0 18 1 1 *', resume: '0 8 1 1 *' } });
    const d = s.desiredState(ms('2026-08-14T12:00:00Z'));
    expect(d.state).toBe('Hibernating');
    expect(d.since?.at).toBe('2026-01-01T18:00:00.000Z');
    expect(s.nextEdge(ms('2026-08-14T12:00:00Z'))?.at).toBe('2027-01-01T08:00:00.000Z');
  });
});

describe('validation', () => {
  it('names every bad field', () => {
    let err: unknown;
    try {
      compileSchedule({
        timeZone: 'Mars/Base',
        windows: [{ days: ['Funday' as 'Mon'], start: '7:00', end: '25:00' }],
        exceptions: [{ date: '2026-02-30', mode: 'skipHibernation' }],
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(Invalid);
    expect((err as Invalid).fields.map((f) => f.field)).toEqual([
      'timeZone',
      'windows[0].days[0]',
      'windows[0].start',
      'windows[0].end',
      'exceptions[0].date',
    ]);
  });

  it('rejects a cron expression with six fields or out-of-range values, naming the expression', () => {
    expect(() =>
      compileSchedule({ timeZone: 'UTC', cron: { hibernate: '0 0 19 * * 1-5', resume: '0 7 * * 1-5' } }),
    ).toThrow(/cron.hibernate: .*five fields/);
    expect(() =>
      compileSchedule({ timeZone: 'UTC', cron: { hibernate: '0 19 * * 1-5', resume: '61 7 * * *' } }),
    ).toThrow(/cron.resume: minute 61/);
    expect(() =>
      compileSchedule({
        timeZone: 'UTC',
        windows: [{ days: ['Mon'], start: '07:00', end: '08:00' }],
        cron: { hibernate: '0 1 * * *', resume: '0 2 * * *' },
      }),
    ).toThrow(/exactly one of windows or cron/);
  });

  it('understands cron names, ranges, steps and the day-of-month OR day-of-week rule', () => {
    const s = compileSchedule({
      timeZone: 'UTC',
      cron: { hibernate: '0 20 1 * fri', resume: '0 6 * jan-dec mon-fri/2' },
    });
    const edges = s.edges(ms('2026-05-01T00:00:00Z'), ms('2026-05-09T00:00:00Z'));
    // May 1 2026 is a Friday: hibernate on the 1st (dom) and on Fridays; resume Mon, Wed, Fri.
    expect(edges.map((e) => `${e.action}@${e.at.slice(5, 13)}`)).toEqual([
      'resume@05-01T06',
      'hibernate@05-01T20',
      'resume@05-04T06',
      'resume@05-06T06',
      'resume@05-08T06',
      'hibernate@05-08T20',
    ]);
  });
});
