// The order files start in (vitest.config.ts): the two lanes (projects) interleaved by their expected time, so that
// when a worker is free the next file is, as often as can be, of the lane that is behind, and does not wait for the
// other worker to finish a file of its own lane (test/support/lanes.ts). Within a lane vitest's own order: failed
// first, then the longest, from the last run's durations.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A file this machine never ran: the drills take about a minute at a quarter size, most other files seconds. */
const UNKNOWN_MS: Record<string, number> = { drills: 45_000 };
const UNKNOWN_DEFAULT_MS = 4_000;

export default class LaneSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const lanes = new Map<string, TestSpecification[]>();
    for (const spec of await super.sort(files)) {
      const lane = lanes.get(spec.project.name) ?? [];
      lane.push(spec);
      lanes.set(spec.project.name, lane);
    }
    const expected = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`)
        ?.duration ??
      UNKNOWN_MS[spec.project.name] ??
      UNKNOWN_DEFAULT_MS;
    const elapsed = new Map([...lanes.keys()].map((lane) => [lane, 0]));
    const order: TestSpecification[] = [];
    for (;;) {
      const behind = [...lanes]
        .filter(([, specs]) => specs.length > 0)
        .sort(([a], [b]) => elapsed.get(a)! - elapsed.get(b)!)[0];
      if (!behind) return order;
      const spec = behind[1].shift()!;
      elapsed.set(behind[0], elapsed.get(behind[0])! + expected(spec));
      order.push(spec);
    }
  }
}
