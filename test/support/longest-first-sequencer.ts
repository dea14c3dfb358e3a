// The order files start in (vitest.config.ts): the longest first, in each project. Files run a few side by side, and
// a run ends when its last file does: a long file started last would run alone while the other workers sit idle
// (redis-down's outage and heartbeat minute among the drills; embedded-default, relocation-run or sweep-pool among
// the rest). Expected times come from test/support/file-seconds.json (`npx tsx test/support/write-file-seconds.ts`
// writes it again from a JSON report), not from vitest's cache: a clean clone has no cache, and the cache holds each
// file's tests without its setup (a drill's processes start in beforeAll).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A file the table does not know yet: about half a minute for a drill at a quarter size, a few seconds otherwise. */
const unknownSeconds = (file: string) => (file.startsWith('test/drills/') ? 30 : 4);

const measured = JSON.parse(readFileSync(new URL('./file-seconds.json', import.meta.url), 'utf8')) as Record<
  string,
  number
>;

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const path = (spec: TestSpecification) => relative(this.ctx.config.root, spec.moduleId).replace(/\\/g, '/');
    const expected = (spec: TestSpecification) => measured[path(spec)] ?? unknownSeconds(path(spec));
    // vitest's own sort first (it groups the files by project), then the longest first within each project.
    const sorted = await super.sort(files);
    const project = (spec: TestSpecification) => spec.project.name;
    const projects = [...new Set(sorted.map(project))];
    return projects.flatMap((name) =>
      sorted
        .filter((spec) => project(spec) === name)
        .sort((a, b) => expected(b) - expected(a) || path(a).localeCompare(path(b))),
    );
  }
}
