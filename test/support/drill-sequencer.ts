// The order files start in by default (vitest.config.ts): vitest's own for every file but the drills, and the drills
// longest first. The drills run last, a few side by side (a project group of their own), so the run ends when the
// last drill does: starting the long ones first (redis-down's outage and heartbeat minute, restart-redis's two
// drills) keeps a long drill from starting last, alone, while the other workers sit idle. Expected times come from
// test/support/file-seconds.json (as for test/support/lane-sequencer.ts; a drill's entry is its file's time, setup
// included, three at a time), not from vitest's cache: a clean clone has no cache, and the cache holds each file's
// tests without its setup (a drill's processes start in beforeAll).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { laneOf } from './lane-of.js';

/** A drill the table does not know yet: about half a minute at a quarter size. */
const UNKNOWN_DRILL_SECONDS = 30;

const measured = JSON.parse(readFileSync(new URL('./file-seconds.json', import.meta.url), 'utf8')) as Record<
  string,
  number
>;

export default class DrillSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const path = (spec: TestSpecification) => relative(this.ctx.config.root, spec.moduleId).replace(/\\/g, '/');
    const isDrill = (spec: TestSpecification) => laneOf(path(spec)) === 'drills';
    const expected = (spec: TestSpecification) => measured[path(spec)] ?? UNKNOWN_DRILL_SECONDS;
    const sorted = await super.sort(files);
    const drills = sorted.filter(isDrill).sort((a, b) => expected(b) - expected(a) || path(a).localeCompare(path(b)));
    // The other files keep vitest's order, the drills take the places drills had (vitest groups them by project).
    let next = 0;
    return sorted.map((spec) => (isDrill(spec) ? drills[next++]! : spec));
  }
}
