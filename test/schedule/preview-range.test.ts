// The preview's range, without I/O: dates are midnight on the zone's clock (or the first instant after a
// midnight that does not exist), times are RFC 3339 with an offset, days are calendar days of the zone.
import { describe, expect, it } from 'vitest';
import { Invalid } from '../../src/hive/errors.js';
import { previewRange } from '../../src/hive/schedule/index.js';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const iso = (r: { fromMs: number; toMs: number }) => [new Date(r.fromMs).toISOString(), new Date(r.toMs).toISOString()];

describe('preview ranges', () => {
  it('now and seven days by default', () => {
    expect(iso(previewRange({}, 'Europe/Berlin', NOW))).toEqual([
      '2026-11-24T12:00:00.000Z',
      '2026-12-01T12:00:00.000Z',
    ]);
  });

  it('a date where midnight does not exist starts at the first instant after the gap', () => {
    // Sao Paulo, 2018-11-04: clocks went from 00:00 to 01:00.
    expect(
      iso(previewRange({ from: '2018-11-04', days: 1 }, 'America/Sao_Paulo', Date.parse('2018-10-01T00:00:00Z'))),
    ).toEqual(['2018-11-04T03:00:00.000Z', '2018-11-05T02:00:00.000Z']);
  });

  it('days are calendar days: across the autumn change a day lasts 25 hours', () => {
    expect(iso(previewRange({ from: '2027-10-31T00:30:00+02:00', days: 1 }, 'Europe/Berlin', NOW))).toEqual([
      '2027-10-30T22:30:00.000Z',
      '2027-10-31T23:30:00.000Z',
    ]);
  });

  it('names the field it refuses', () => {
    const fieldOf = (q: { from?: string; days?: number }) => {
      try {
        previewRange(q, 'UTC', NOW);
        return 'accepted';
      } catch (e) {
        return e instanceof Invalid ? e.fields.map((f) => f.field).join() : String(e);
      }
    };
    expect(
      ['2027-02-29', '2027-03-01 00:00:00Z', '2027-03-01T00:00:00+2400', '1999-01-01'].map((from) => fieldOf({ from })),
    ).toEqual(['from', 'from', 'from', 'from']);
    expect(fieldOf({ from: '2027-03-01t00:00:00.123456z' })).toBe('accepted');
    expect(fieldOf({ from: '2027-03-01T00:00:00 01:00' })).toBe('accepted'); // a query string's decoded +
    expect([0, 367, 2.5].map((days) => fieldOf({ days }))).toEqual(['days', 'days', 'days']);
  });
});
