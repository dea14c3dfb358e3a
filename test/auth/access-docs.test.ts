// docs/access.md's configuration example, loaded as written: the documented keys and shapes are the real ones.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { createTeamDirectory } from '../../src/auth/team-directory.js';
import { loadConfig } from '../../src/config.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'bk-access-docs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it("docs/access.md's configuration example loads and gives the ownership it describes", () => {
  const doc = readFileSync(join(ROOT, 'docs/access.md'), 'utf8');
  const start = doc.indexOf('```yaml\n') + '```yaml\n'.length;
  const file = join(tmp, 'beekeeper.yaml');
  writeFileSync(file, doc.slice(start, doc.indexOf('\n```', start)));
  const config = loadConfig({ BEEKEEPER_CONFIG: file });
  expect(config.auth.tokens.map((t) => [t.name, t.team, t.role])).toEqual([
    ['ci-payments', 'payments', 'operator'],
    ['payments-lead', 'payments', 'admin'],
    ['platform', undefined, undefined],
  ]);
  const labels: Record<string, string> = { 'east/labelled': 'search' };
  const teams = createTeamDirectory({ config, namespaceLabel: (hub, ns) => labels[`${hub}/${ns}`] });
  expect(teams.namespaceTeam('east', 'payments-dev')).toBe('payments');
  expect(teams.namespaceTeam('west', 'payments-dev')).toBeUndefined();
  expect(teams.namespaceTeam('west', 'payments-ci')).toBe('payments');
  expect(teams.poolTeam('east', 'shared-pools', 'payments-small')).toBe('payments');
  expect(teams.namespaceTeam('east', 'labelled')).toBe('search');
});
