import { describe, expect, it } from 'vitest';
import { compileSchedule } from '../../src/hive/schedule/index.js';

const ms = (iso: string) => Date.parse(iso);
const at = (edges: Array<{ at: string }>) => edges.map((e) => e.at);

describe('cron schedules across DST transitions', () => {
  const nightly = (timeZone: string) =>
    compileSchedule({ timeZone, cron: { hibernate: '30 2 * * *', resume: '0 8 * * *' } });

  it('Europe/Berlin spring forward: 02:30 does not exist, hibernation happens once at 03:00 CEST', () => {
    const s = nightly('Europe/Berlin');
    const edges = s
      .edges(ms('2026-03-28T00:00:00Z'), ms('2026-03-30T23:00:00Z'))
      .filter((e) => e.action === 'hibernate');
    expect(at(edges)).toEqual(['2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
    expect(edges[1]?.local).toBe('2026-03-29T03:00:00.000+02:00');
    expect(edges[1]?.reason).toMatch(/does not exist/);
  });

  it('Europe/Berlin fall back: 02:30 happens twice on the clock but hibernation runs once, at the first', () => {
    const s = nightly('Europe/Berlin');
    const edges = s
      .edges(ms('2026-10-24T12:00:00Z'), ms('2026-10-25T12:00:00Z'))
      .filter((e) => e.action === 'hibernate');
    expect(at(edges)).toEqual(['2026-10-25T00:30:00.000Z']);
    expect(edges[0]?.local).toBe('2026-10-25T02:30:00.000+02:00');
  });

  it('America/New_York: a 02:30 action on spring-forward day happens once at 03:00 EDT', () => {
    const s = nightly('America/New_York');
    const edges = s
      .edges(ms('2026-03-07T12:00:00Z'), ms('2026-03-09T12:00:00Z'))
      .filter((e) => e.action === 'hibernate');
    expect(at(edges)).toEqual(['2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z']);
  });

  it('America/New_York fall back: 01:30 runs once, in EDT', () => {
    const s = compileSchedule({ timeZone: 'America/New_York', cron: { hibernate: '30 1 * * *', resume: '0 8 * * *' } });
    const edges = s
      .edges(ms('2026-11-01T00:00:00Z'), ms('2026-11-02T00:00:00Z'))
      .filter((e) => e.action === 'hibernate');
    expect(at(edges)).toEqual(['2026-11-01T05:30:00.000Z']);
  });

  it('Australia/Sydney (southern hemisphere): DST ends in April and starts in October', () => {
    const s = nightly('Australia/Sydney');
    // 2026-04-05 03:00 AEDT -> 02:00 AEST: 02:30 occurs twice, first at +11:00.
    const april = s
      .edges(ms('2026-04-04T10:00:00Z'), ms('2026-04-05T10:00:00Z'))
      .filter((e) => e.action === 'hibernate');
    expect(at(april)).toEqual(['2026-04-04T15:30:00.000Z']);
    expect(april[0]?.local).toBe('2026-04-05T02:30:00.000+11:00');
    // 2026-10-04 02:00 AEST -> 03:00 AEDT: 02:30 does not exist, runs at 03:00 AEDT.
    const october = s
      .edges(ms('2026-10-03T10:00:00Z'), ms('2026-10-04T10:00:00Z'))
      .filter((e) => e.action === 'hibernate');
    expect(at(october)).toEqual(['2026-10-03T16:00:00.000Z']);
    expect(october[0]?.local).toBe('2026-10-04T03:00:00.000+11:00');
  });

  it('America/Sao_Paulo 2018: midnight did not exist, a 00:00 window start runs at 01:00', () => {
    const s = compileSchedule({
      timeZone: 'America/Sao_Paulo',
      windows: [{ days: ['Sun'], start: '00:00', end: '12:00' }],
    });
    const edges = s.edges(ms('2018-11-03T12:00:00Z'), ms('2018-11-05T00:00:00Z'));
    expect(edges.map((e) => [e.action, e.local])).toEqual([
      ['resume', '2018-11-04T01:00:00.000-02:00'],
      ['hibernate', '2018-11-04T12:00:00.000-02:00'],
    ]);
  });
});

describe('window schedules', () => {
  const office = compileSchedule({
    timeZone: 'America/New_York',
    windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '07:00', end: '19:00' }],
  });

  it('keeps local times across the March change: the UTC instants shift by an hour', () => {
    const edges = office.edges(ms('2026-03-06T00:00:00Z'), ms('2026-03-10T00:00:00Z'));
    expect(edges.map((e) => [e.action, e.at])).toEqual([
      ['resume', '2026-03-06T12:00:00.000Z'],
      ['hibernate', '2026-03-07T00:00:00.000Z'],
      ['resume', '2026-03-09T11:00:00.000Z'],
      ['hibernate', '2026-03-09T23:00:00.000Z'],
    ]);
    expect(edges[0]?.reason).toBe('window Mon-Fri 07:00-19:00 starts');
  });

  it('says what state clusters should be in at any instant, including over the weekend', () => {
    expect(office.desiredState(ms('2026-03-09T15:00:00Z')).state).toBe('Running');
    expect(office.desiredState(ms('2026-03-08T15:00:00Z')).state).toBe('Hibernating');
    expect(office.desiredState(ms('2026-03-08T15:00:00Z')).since?.at).toBe('2026-03-07T00:00:00.000Z');
  });

  it('an overnight window runs from the listed day into the next morning', () => {
    const night = compileSchedule({
      timeZone: 'Europe/Berlin',
      windows: [{ days: ['Fri'], start: '22:00', end: '06:00' }],
    });
    const edges = night.edges(ms('2026-06-05T00:00:00Z'), ms('2026-06-07T00:00:00Z'));
    expect(edges.map((e) => [e.action, e.local])).toEqual([
      ['resume', '2026-06-05T22:00:00.000+02:00'],
      ['hibernate', '2026-06-06T06:00:00.000+02:00'],
    ]);
    expect(night.desiredState(ms('2026-06-06T01:00:00Z')).state).toBe('Running');
  });

  it('touching windows are one run period, with no hibernate/resume at the seam', () => {
    const s = compileSchedule({
      timeZone: 'Europe/Berlin',
      windows: [
        { days: ['Mon'], start: '08:00', end: '24:00' },
        { days: ['Tue'], start: '00:00', end: '18:00' },
      ],
    });
    const edges = s.edges(ms('2026-06-01T00:00:00Z'), ms('2026-06-03T00:00:00Z'));
    expect(edges.map((e) => [e.action, e.local])).toEqual([
      ['resume', '2026-06-01T08:00:00.000+02:00'],
      ['hibernate', '2026-06-02T18:00:00.000+02:00'],
    ]);
  });

  it('windows covering the whole week never act', () => {
    const s = compileSchedule({
      timeZone: 'UTC',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'], start: '00:00', end: '24:00' }],
    });
    expect(s.edges(ms('2026-06-01T00:00:00Z'), ms('2026-06-20T00:00:00Z'))).toEqual([]);
    expect(s.desiredState(ms('2026-06-03T00:00:00Z')).state).toBe('Running');
  });
});
