// Schedules can be checked ahead: the preview (and a cluster's schedule view) start at `from`, a date in the
// schedule's zone or an RFC 3339 time, and cover up to a year, with the answer bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchedulePreview } from '../../src/services/schedules/preview.js';
import { adoptCluster, HUB, startBed, type Bed } from './support.js';

let bed: Bed;
const get = (url: string) => bed.app.inject({ method: 'GET', url });
const nightly = (timeZone: string) => ({ timeZone, cron: { hibernate: '30 2 * * *', resume: '0 8 * * *' } });
const shape = (edges: SchedulePreview['edges']) => edges.map((e) => [e.action, e.at, e.local]);

async function preview(name: string, query: string): Promise<SchedulePreview> {
  const res = await get(`/v1/schedules/${name}/preview?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SchedulePreview>();
}

beforeAll(async () => {
  bed = await startBed(Date.parse('2026-11-24T12:00:00Z'));
  await adoptCluster(bed, 'nights', 'c1', { labels: { 'beekeeper.io/hibernation-schedule': 'berlin-nights' } });
  const schedules = [
    { name: 'berlin-nights', ...nightly('Europe/Berlin'), targets: { requireOptIn: true } },
    { name: 'ny-nights', ...nightly('America/New_York'), targets: { requireOptIn: true } },
    {
      name: 'office',
      timeZone: 'Europe/Berlin',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
      targets: { requireOptIn: true },
    },
    {
      name: 'every-5-min',
      timeZone: 'UTC',
      cron: { hibernate: '*/5 * * * *', resume: '2-59/5 * * * *' },
      targets: { requireOptIn: true },
    },
  ];
  for (const payload of schedules) {
    const res = await bed.app.inject({ method: 'POST', url: '/v1/schedules', payload });
    expect(res.statusCode, res.body).toBe(201);
  }
  await bed.system.store.waitFor(
    'HibernationSchedule',
    { hub: HUB, namespace: 'beekeeper', name: 'every-5-min' },
    (o) => o,
    { timeoutMs: 10_000 },
  );
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

describe('previews from a chosen day', () => {
  it("Berlin, next March: from a date at 00:00 local, the spring-forward night's 02:30 runs once at 03:00 CEST (01:00 UTC)", async () => {
    const p = await preview('berlin-nights', 'from=2027-03-27&days=3');
    expect(p).toMatchObject({ from: '2027-03-26T23:00:00.000Z', to: '2027-03-29T22:00:00.000Z', truncated: false });
    expect(p).not.toHaveProperty('runNow');
    expect(shape(p.edges)).toEqual([
      ['hibernate', '2027-03-27T01:30:00.000Z', '2027-03-27T02:30:00.000+01:00'],
      ['resume', '2027-03-27T07:00:00.000Z', '2027-03-27T08:00:00.000+01:00'],
      ['hibernate', '2027-03-28T01:00:00.000Z', '2027-03-28T03:00:00.000+02:00'],
      ['resume', '2027-03-28T06:00:00.000Z', '2027-03-28T08:00:00.000+02:00'],
      ['hibernate', '2027-03-29T00:30:00.000Z', '2027-03-29T02:30:00.000+02:00'],
      ['resume', '2027-03-29T06:00:00.000Z', '2027-03-29T08:00:00.000+02:00'],
    ]);
    expect(p.edges[2]!.reason).toMatch(/02:30 does not exist on this date in Europe\/Berlin/);
    expect(p.edges.every((e) => e.clusters?.map((c) => c.name).join() === 'c1')).toBe(true);
  });

  it('New York, next March: 2027-03-14 02:30 runs once at 03:00 EDT (07:00 UTC)', async () => {
    const p = await preview('ny-nights', 'from=2027-03-13&days=2');
    expect(p).toMatchObject({ from: '2027-03-13T05:00:00.000Z', to: '2027-03-15T04:00:00.000Z' });
    expect(shape(p.edges)).toEqual([
      ['hibernate', '2027-03-13T07:30:00.000Z', '2027-03-13T02:30:00.000-05:00'],
      ['resume', '2027-03-13T13:00:00.000Z', '2027-03-13T08:00:00.000-05:00'],
      ['hibernate', '2027-03-14T07:00:00.000Z', '2027-03-14T03:00:00.000-04:00'],
      ['resume', '2027-03-14T12:00:00.000Z', '2027-03-14T08:00:00.000-04:00'],
    ]);
  });

  it('from an RFC 3339 time, in any offset, for calendar days of the zone (23 hours on the spring-forward day)', async () => {
    const utc = await preview('berlin-nights', 'from=2027-03-28T00:00:00Z&days=1');
    const offset = await preview('berlin-nights', `from=${encodeURIComponent('2027-03-28T01:00:00+01:00')}&days=1`);
    // Typed into a URL unencoded, the + arrives as a space: still that instant.
    const typed = await preview('berlin-nights', 'from=2027-03-28T01:00:00+01:00&days=1');
    expect(utc).toMatchObject({ from: '2027-03-28T00:00:00.000Z', to: '2027-03-28T23:00:00.000Z' });
    expect(offset).toEqual(utc);
    expect(typed).toEqual(utc);
    expect(shape(utc.edges).map(([action, at]) => [action, at])).toEqual([
      ['hibernate', '2027-03-28T01:00:00.000Z'],
      ['resume', '2027-03-28T06:00:00.000Z'],
    ]);
  });

  it("one cluster's schedule view takes the same from and days", async () => {
    const res = await get(`/v1/clusters/${HUB}/nights/c1/schedule?from=2027-03-28&days=1`);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({
      schedule: 'berlin-nights',
      from: '2027-03-27T23:00:00.000Z',
      to: '2027-03-28T22:00:00.000Z',
      truncated: false,
    });
    expect(view.next.map((e: { action: string; at: string }) => [e.action, e.at])).toEqual([
      ['hibernate', '2027-03-28T01:00:00.000Z'],
      ['resume', '2027-03-28T06:00:00.000Z'],
    ]);
  });

  it('a whole year: every weekday of 2027 on office hours, both clock changes at their UTC instants', async () => {
    const p = await preview('office', 'from=2027-01-01&days=366');
    expect(p).toMatchObject({ from: '2026-12-31T23:00:00.000Z', to: '2028-01-01T23:00:00.000Z', truncated: false });
    expect(p.edges).toHaveLength(261 * 2);
    const ats = p.edges.map((e) => `${e.action} ${e.at}`);
    // Friday before the spring change in CET, Monday after in CEST; the same around the autumn change.
    expect(ats).toEqual(
      expect.arrayContaining([
        'hibernate 2027-03-26T17:00:00.000Z',
        'resume 2027-03-29T06:00:00.000Z',
        'hibernate 2027-10-29T16:00:00.000Z',
        'resume 2027-11-01T07:00:00.000Z',
      ]),
    );
  });

  it('with clusters=false each edge gives counts instead of lists, so a large fleet also gets a year in one answer', async () => {
    const p = await preview('berlin-nights', 'from=2027-01-01&days=365&clusters=false');
    expect(p).toMatchObject({ truncated: false, to: '2027-12-31T23:00:00.000Z' });
    expect(p.edges).toHaveLength(365 * 2);
    expect(p.edges[0]).toEqual({
      at: '2027-01-01T01:30:00.000Z',
      local: '2027-01-01T02:30:00.000+01:00',
      action: 'hibernate',
      reason: 'cron hibernate "30 2 * * *"',
      counts: { acted: 1, skipped: 0 },
    });
  });

  it('a year of a five-minute cron is cut at 1000 edges, saying where; asking again from there carries on', async () => {
    const first = await preview('every-5-min', 'from=2027-01-01&days=366');
    expect(first.truncated).toBe(true);
    expect(first.edges).toHaveLength(1000);
    // 24 edges an hour (:00 hibernate, :02 resume, ...): the 1001st is 41 hours and 40 minutes in.
    expect(first.to).toBe('2027-01-02T17:40:00.000Z');
    expect(first.edges.at(-1)!.at < first.to).toBe(true);
    const next = await preview('every-5-min', `from=${first.to}&days=1`);
    expect(next.edges[0]).toMatchObject({ at: first.to });
    expect(next.edges[0]!.at > first.edges.at(-1)!.at).toBe(true);
  });
});

describe('bad range values', () => {
  const problem = async (url: string) => {
    const res = await get(url);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    return {
      status: res.statusCode,
      fields: (res.json().errors ?? []).map((e: { field: string }) => e.field),
      body: res.json(),
    };
  };

  it('from that is no date, no RFC 3339 time, or more than 5 years away is 422 naming from', async () => {
    for (const from of ['2027-02-30', 'next%20march', '2027-03-01T00:00:00', '2027-03-01T25:00:00Z', '2040-01-01']) {
      const res = await problem(`/v1/schedules/office/preview?from=${from}`);
      expect([from, res.status, res.fields]).toEqual([from, 422, ['from']]);
    }
    expect((await problem(`/v1/clusters/${HUB}/nights/c1/schedule?from=2027-13-01`)).fields).toEqual(['from']);
  });

  it('days outside 1..366 is 400 naming days; a year is fine', async () => {
    expect((await get('/v1/schedules/office/preview?days=366')).statusCode).toBe(200);
    for (const days of ['0', '367', '1.5', 'year']) {
      const res = await problem(`/v1/schedules/office/preview?days=${days}`);
      expect([days, res.status, res.fields]).toEqual([days, 400, ['days']]);
    }
  });
});
