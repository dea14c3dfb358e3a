// The drills' report: what report() prints is what the reporter reads back, other output is ignored, and the table
// has a row per tally.
import { describe, expect, it, vi } from 'vitest';
import { drillRows, drillTable, report } from './report.js';
import { tally } from './tally.js';

describe('the drill report', () => {
  it('reads back what report() prints, skips other lines, and tables one row per tally', () => {
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
    try {
      report('flush', tally(['a', 'b', 'c'], ['a', 'a', 'b']), { seconds: 12.34 });
      report('sweep', tally(['a'], ['a', 'x']));
    } finally {
      log.mockRestore();
    }
    const output = [
      'drill flush: something',
      ...printed,
      'DRILL not json',
      'DRILL {"name":"kill","expected":2,"done":2,"duplicated":0,"lost":0}',
    ].join('\n');
    const rows = drillRows(output);
    expect(rows).toEqual([
      { drill: 'flush', expected: 3, done: 2, duplicated: 1, lost: 1, seconds: 12.3 },
      { drill: 'sweep', expected: 1, done: 1, duplicated: 0, lost: 0, unexpected: 1 },
      { drill: 'kill', expected: 2, done: 2, duplicated: 0, lost: 0 },
    ]);
    expect(drillTable(rows).split('\n')).toEqual([
      'drill  expected  done  duplicated  lost  unexpected  seconds',
      '-----  --------  ----  ----------  ----  ----------  -------',
      'flush         3     2           1     1           0     12.3',
      'sweep         1     1           0     0           1        -',
      'kill          2     2           0     0           0        -',
    ]);
  });
});
