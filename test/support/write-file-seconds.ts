// Writes test/support/file-seconds.json, the expected time of each test file that test/support/longest-first-sequencer.ts
// orders the files by, from a vitest JSON report (BEEKEEPER_TEST_REPORT=/tmp/r.json DRILL_SCALE=0.25 npx vitest run):
//   npx tsx test/support/write-file-seconds.ts /tmp/r.json
// A file's time depends on what runs beside it, so a run on a quiet machine gives the best table.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

interface Report {
  testResults: { name: string; startTime: number; endTime: number }[];
}

const [reportPath] = process.argv.slice(2);
if (!reportPath) throw new Error('usage: tsx test/support/write-file-seconds.ts <vitest JSON report>');
const report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
const root = new URL('../..', import.meta.url).pathname;
const seconds = Object.fromEntries(
  report.testResults
    .map((r) => [relative(root, r.name), Math.max(1, Math.round((r.endTime - r.startTime) / 1000))] as const)
    .sort(([a], [b]) => a.localeCompare(b)),
);
writeFileSync(new URL('./file-seconds.json', import.meta.url), `${JSON.stringify(seconds, null, 2)}\n`);
