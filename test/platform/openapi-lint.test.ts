// Redocly CLI's recommended rules on the committed contract (issue 10): no errors, and no warnings but those
// redocly.yaml accepts (each with its reason). The CLI is the exact devDependency npm ci installed, run from
// node_modules with telemetry and update checks off, so the lint needs no network.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = 'node_modules/@redocly/cli';

describe('the OpenAPI lint', () => {
  it('passes the recommended rules with no errors and no warnings but the accepted ones', async () => {
    const pinned = (
      JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { devDependencies: Record<string, string> }
    ).devDependencies['@redocly/cli'];
    const installed = (JSON.parse(readFileSync(`${ROOT}${CLI}/package.json`, 'utf8')) as { version: string }).version;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed).toBe(pinned);

    const { stdout } = await promisify(execFile)(
      process.execPath,
      [`${CLI}/bin/cli.js`, 'lint', 'openapi/openapi.json', '--format=json'],
      {
        cwd: ROOT,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        timeout: 60_000,
      },
    );
    const report = JSON.parse(stdout) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; message: string }>;
    };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
