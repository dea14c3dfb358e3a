// The upstream Hive CRDs are test data that stay outside the repository (the project writes its own schemas; see
// ../shared/hive/crds/SOURCE.txt in the workspace it was built in). Tests that compare against them skip, loudly,
// when they are not beside the clone.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const upstreamCrdDir = path.resolve(repoRoot, '../shared/hive/crds');

/** The reason to skip a test that needs the upstream CRDs, or undefined when they are there. */
export const upstreamCrdsMissing: string | undefined = existsSync(upstreamCrdDir)
  ? undefined
  : 'needs the upstream Hive CRDs (../shared/hive/crds beside the clone), which the repository does not hold';

/** The upstream CustomResourceDefinition objects; [] when they are missing. */
export function upstreamCrds(): any[] {
  if (upstreamCrdsMissing) return [];
  return readdirSync(upstreamCrdDir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .flatMap((f) => parseAllDocuments(readFileSync(path.join(upstreamCrdDir, f), 'utf8')).map((d) => d.toJS()))
    .filter((d) => d?.kind === 'CustomResourceDefinition');
}
