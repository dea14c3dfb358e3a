// The order files start in (vitest.config.ts): the two lanes (test/support/lanes.ts) interleaved by their expected
// time, so that when a worker comes free the next file is, as often as can be, of the lane that is behind, and does
// not wait for the other worker to finish a file of its own lane. Within a lane, the longest files first.
// Expected times come from test/support/file-seconds.json (one measured run; `npm run test:durations` writes it
// again from a JSON report), not from vitest's cache: a clean clone has no cache, and a file's cached duration
// includes the time it waited for its lane.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { laneOf, type Lane } from './lane-of.js';

/** A file the table does not know yet: the drills take about a minute at a quarter size, most other files seconds. */
const UNKNOWN_SECONDS: Record<Lane, number> = { drills: 45, rest: 4 };

const measured = JSON.parse(readFileSync(new URL('./file-seconds.json', import.meta.url), 'utf8')) as Record<
  string,
  number
>;

export default class LaneSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const path = (spec: TestSpecification) => relative(this.ctx.config.root, spec.moduleId).replace(/\\/g, '/');
    const expected = (spec: TestSpecification) => measured[path(spec)] ?? UNKNOWN_SECONDS[laneOf(path(spec))];
    const lanes = new Map<Lane, TestSpecification[]>();
    for (const spec of [...files].sort((a, b) => expected(b) - expected(a) || path(a).localeCompare(path(b)))) {
      const lane = laneOf(path(spec));
      lanes.set(lane, [...(lanes.get(lane) ?? []), spec]);
    }
    const elapsed = new Map<Lane, number>([...lanes.keys()].map((lane) => [lane, 0]));
    const order: TestSpecification[] = [];
    for (;;) {
      const behind = [...lanes]
        .filter(([, specs]) => specs.length > 0)
        .sort(([a], [b]) => elapsed.get(a)! - elapsed.get(b)!)[0];
      if (!behind) return Promise.resolve(order);
      const spec = behind[1].shift()!;
      elapsed.set(behind[0], elapsed.get(behind[0])! + expected(spec));
      order.push(spec);
    }
  }
}
