// `beekeeper token new`: a fresh token and the entry that configures it by its SHA-256, which the server accepts.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { staticTokens } from '../../src/auth/static-tokens.js';
import { runCli } from '../../src/cli/run.js';
import { loadConfig } from '../../src/config.js';

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    env: {},
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    writeSecretFile: async () => undefined,
    signal: new AbortController().signal,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

it('prints a new token and its entry, which holds only the hash and configures Beekeeper as is', async () => {
  const run = await cli(['token', 'new', '--name', 'ci', '--team', 'payments', '--role', 'operator']);
  expect(run.code).toBe(0);
  const lines = run.out.split('\n');
  const token = lines[1]!;
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const entry = lines.slice(3).join('\n');
  expect(entry).toBe(
    `- name: ci\n  tokenSha256: ${createHash('sha256').update(token).digest('hex')}\n  team: payments\n  role: operator`,
  );
  expect(entry).not.toContain(token);
  const json = await cli(['token', 'new', '--name', 'ops', '--json']);
  const { token: second, entry: parsed } = JSON.parse(json.out);
  expect(second).not.toBe(token);
  expect(parsed).toEqual({ name: 'ops', tokenSha256: createHash('sha256').update(second).digest('hex') });
  // The entry is what the configuration file takes, as printed.
  const dir = mkdtempSync(join(tmpdir(), 'bk-token-'));
  try {
    writeFileSync(join(dir, 'c.yaml'), `auth:\n  tokens:\n${entry.replace(/^/gm, '    ')}\n`);
    const config = loadConfig({ BEEKEEPER_CONFIG: join(dir, 'c.yaml') });
    expect(staticTokens(config.auth.tokens)(token)).toMatchObject({ name: 'ci', token: { team: 'payments' } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it('refuses a bad name, team or role as a usage error', async () => {
  expect((await cli(['token', 'new'])).code).toBe(2);
  expect((await cli(['token', 'new', '--name', 'ci', '--team', 'payments'])).err).toContain(
    'with --team give --role viewer, operator or admin',
  );
  expect((await cli(['token', 'new', '--name', 'ci', '--role', 'boss'])).code).toBe(2);
  expect((await cli(['token', 'rotate'])).code).toBe(2);
});
