// How many times the code says one thing: the figures issue 10 ("one shape per concept") is judged by. Prints one
// table for src/: job-type strings, `as unknown as` casts, declarations per concept, files over 200 lines, the
// longest line. Run: npx tsx scripts/shape-report.ts [--json]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const sources = files(root).map((p) => ({ path: path.relative(path.dirname(root), p), text: readFileSync(p, 'utf8') }));
const count = (re: RegExp, where: (path: string) => boolean = () => true) =>
  sources.reduce((n, s) => n + (where(s.path) ? (s.text.match(re)?.length ?? 0) : 0), 0);

// Job types: every quoted `area.verb` string that names a job type somewhere (the queue's `add(type, …)` names).
const jobTypes = new Set<string>();
for (const s of sources)
  for (const m of s.text.matchAll(/['"`]((?:cluster|pool|claim|schedule|expiry|test)\.[a-z-]+)['"`]/g))
    jobTypes.add(m[1]!);
const typeStrings = [...jobTypes].reduce(
  (n, t) => n + count(new RegExp(`['"\`]${t.replace('.', '\\.')}['"\`]`, 'g')),
  0,
);

// Declarations of one concept under several names or in several places.
const concepts: Record<string, RegExp> = {
  'object reference (…Ref types)': /^\s*export\s+(?:interface|type)\s+\w*Ref\b/gm,
  'condition type': /^\s*export\s+(?:interface|type)\s+\w*Condition\b/gm,
  'ClusterDeployment-like type':
    /^\s*export\s+(?:interface|type)\s+(?:CdLike|ClusterDeployment|\w*ClusterDeploymentLike)\b/gm,
  'truthy helper': /^\s*export\s+(?:function|const)\s+(?:isTruthy|truthy)\b/gm,
  'label selector matcher':
    /^\s*export\s+(?:function|const)\s+\w*(?:matchesSelector|matchLabels|selectorMatches|labelSelectorMatches)\w*\b/gm,
  'job id builder': /^\s*export\s+(?:function|const)\s+\w*(?:JobId|jobId|dedupId|DedupId)\w*\b/gm,
};

const lines = sources.flatMap((s) =>
  s.text.split('\n').map((l, i) => ({ path: s.path, line: i + 1, length: l.length })),
);
const longest = lines.reduce((a, b) => (b.length > a.length ? b : a));
const big = sources
  .filter((s) => s.text.split('\n').length > 200)
  .map((s) => s.path)
  .sort();

const report = {
  files: sources.length,
  jobTypes: jobTypes.size,
  jobTypeStrings: typeStrings,
  asUnknownAs: count(/as unknown as/g),
  // The simulator keeps its own copies on purpose (docs/adr/0001): counted apart from the service's.
  declarations: Object.fromEntries(
    Object.entries(concepts).map(([k, re]) => [k, count(re, (p) => !p.startsWith('src/sim/'))]),
  ),
  simulatorCopies: Object.fromEntries(
    Object.entries(concepts).map(([k, re]) => [k, count(re, (p) => p.startsWith('src/sim/'))]),
  ),
  filesOver200Lines: big.length,
  longestLine: { length: longest.length, at: `${longest.path}:${longest.line}` },
};

if (process.argv.includes('--json')) console.log(JSON.stringify({ ...report, filesOver200LinesList: big }, null, 2));
else {
  console.log(`files in src/                   ${report.files}`);
  console.log(`job types / their strings       ${report.jobTypes} / ${report.jobTypeStrings}`);
  console.log(`'as unknown as' casts           ${report.asUnknownAs}`);
  for (const [k, v] of Object.entries(report.declarations))
    console.log(`declarations: ${k.padEnd(30)} ${v}   (+${report.simulatorCopies[k]} in src/sim)`);
  console.log(`files over 200 lines            ${report.filesOver200Lines}`);
  console.log(`longest line                    ${report.longestLine.length} (${report.longestLine.at})`);
}
