// Static tokens: kept only as SHA-256 digests, from the configuration, a file re-read when it changes and a Secret
// re-read periodically, so a token is rotated (new added, both work, old removed) without a restart.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { eventually, HUB, startAuthBed, type AuthBed } from './sign-in-support.js';

const newToken = () => randomBytes(24).toString('base64url');
const sha = (t: string) => createHash('sha256').update(t).digest('hex');
const b64 = (s: string) => Buffer.from(s).toString('base64');
const beds: AuthBed[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const bed of beds) await bed.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const bed = async (env: Record<string, string>) => {
  const b = await startAuthBed(env);
  beds.push(b);
  return b;
};
const status = async (b: AuthBed, token: string) => (await b.get('/v1/hubs', token)).status;

describe('static tokens', () => {
  it('keeps only the digest of a plain token, and accepts an entry given as tokenSha256', async () => {
    const plain = newToken();
    const hashed = newToken();
    const dir = mkdtempSync(join(tmpdir(), 'bk-auth-'));
    dirs.push(dir);
    const file = join(dir, 'config.yaml');
    writeFileSync(
      file,
      `auth:\n  tokens:\n    - { name: ci, token: ${plain} }\n    - { name: portal, tokenSha256: ${sha(hashed)}, team: payments, role: operator }\n`,
    );
    const config = loadConfig({ BEEKEEPER_CONFIG: file });
    expect(JSON.stringify(config)).not.toContain(plain);
    expect(config.auth.tokens).toEqual([
      { name: 'ci', tokenSha256: sha(plain) },
      { name: 'portal', tokenSha256: sha(hashed), team: 'payments', role: 'operator' },
    ]);

    const b = await bed({ BEEKEEPER_CONFIG: file });
    expect(await status(b, plain)).toBe(200);
    expect(await status(b, hashed)).toBe(200);
    expect(b.principals()).toEqual(['ci', 'portal']);
    // The digest itself is not a token.
    expect(await status(b, sha(hashed))).toBe(401);
    expect(b.logs()).not.toContain(plain);
    expect(b.logs()).not.toContain(hashed);
  });

  it('refuses an entry with both token and tokenSha256, or neither, without quoting the token', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bk-auth-'));
    dirs.push(dir);
    const file = join(dir, 'config.yaml');
    const secret = newToken();
    writeFileSync(
      file,
      `auth:\n  tokens:\n    - { name: a, token: ${secret}, tokenSha256: ${sha(secret)} }\n    - { name: b }\n    - { name: c, tokenSha256: nothex }\n`,
    );
    let issues: string[] = [];
    try {
      loadConfig({ BEEKEEPER_CONFIG: file });
    } catch (err) {
      issues = (err as ConfigError).issues;
    }
    expect(issues).toEqual([
      `auth.tokens[0] (${file}): set exactly one of token or tokenSha256`,
      `auth.tokens[1] (${file}): set exactly one of token or tokenSha256`,
      expect.stringMatching(/^auth\.tokens\[2\]\.tokenSha256 .* must be the hex SHA-256 of the token$/),
    ]);
    expect(issues.join('\n')).not.toContain(secret);
  });

  it('answers 401 with a Bearer challenge, invalid_token only when a token was sent; probes and metrics stay open', async () => {
    const b = await bed({ BEEKEEPER_API_TOKENS: `ci=${newToken()}` });
    const none = await b.get('/v1/hubs');
    expect([none.status, none.headers['www-authenticate']]).toEqual([401, 'Bearer realm="beekeeper"']);
    const wrong = await b.get('/v1/hubs', newToken());
    expect([wrong.status, wrong.headers['www-authenticate'], wrong.body.code]).toEqual([
      401,
      'Bearer realm="beekeeper", error="invalid_token"',
      'Unauthorized',
    ]);
    for (const path of ['/healthz', '/metrics', '/openapi.json']) expect((await b.get(path)).status, path).toBe(200);
  });

  it('asks /metrics for a token too when auth.metricsRequireToken is set', async () => {
    const token = newToken();
    const b = await bed({ BEEKEEPER_API_TOKENS: `prom=${token}`, BEEKEEPER_METRICS_REQUIRE_TOKEN: 'true' });
    expect((await b.get('/metrics')).status).toBe(401);
    expect((await b.get('/metrics', token)).status).toBe(200);
    expect((await b.get('/healthz')).status).toBe(200);
  });
});

describe('tokens file', () => {
  it('rotates without a restart: new entry added, both work, old removed; a bad file keeps the last good set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bk-auth-'));
    dirs.push(dir);
    const file = join(dir, 'tokens.yaml');
    const old = newToken();
    const next = newToken();
    // Written aside and renamed into place, as editors and mounted Secrets do.
    const write = (text: string) => {
      writeFileSync(`${file}.tmp`, text);
      renameSync(`${file}.tmp`, file);
    };
    write(`- name: ci\n  tokenSha256: ${sha(old)}\n`);
    const b = await bed({ BEEKEEPER_API_TOKENS_FILE: file, BEEKEEPER_AUTH_RELOAD_SECONDS: '1' });
    expect(await status(b, old)).toBe(200);
    expect(await status(b, next)).toBe(401);

    write(
      `- name: ci\n  tokenSha256: ${sha(old)}\n- name: ci-next\n  token: ${next}\n  team: payments\n  role: admin\n`,
    );
    await eventually(
      () => status(b, next),
      (s) => s === 200,
    );
    expect(await status(b, old)).toBe(200);

    // A broken file (a token on a line YAML cannot read) changes nothing, and the log says why without the token.
    const leaked = newToken();
    write(`- name: ci\n  token: "${leaked}\n  : [\n`);
    await eventually(
      async () => b.logs(),
      (logs) => logs.includes('tokens file invalid: keeping the last good tokens'),
    );
    expect(await status(b, old)).toBe(200);
    expect(await status(b, next)).toBe(200);
    write(`- name: ci\n  token: ${leaked}\n  role: boss\n`);
    await eventually(
      async () => b.logs().split('tokens file invalid').length,
      (n) => n >= 3,
    );
    expect(await status(b, leaked)).toBe(401);

    write(`- name: ci-next\n  tokenSha256: ${sha(next)}\n  team: payments\n  role: admin\n`);
    await eventually(
      () => status(b, old),
      (s) => s === 401,
    );
    expect(await status(b, next)).toBe(200);
    for (const t of [old, next, leaked]) expect(b.logs()).not.toContain(t);
  });

  it('refuses to start when the tokens file cannot be read at first', async () => {
    await expect(startAuthBed({ BEEKEEPER_API_TOKENS_FILE: '/nonexistent/tokens.yaml' })).rejects.toThrow(
      /tokens file \/nonexistent\/tokens\.yaml: cannot read it \(ENOENT\)/,
    );
  });
});

describe('tokens Secret', () => {
  it('reads tokens.yaml from a Secret on a hub and follows its changes', async () => {
    const old = newToken();
    const next = newToken();
    const b = await bed({
      BEEKEEPER_API_TOKENS_SECRET: `${HUB}/beekeeper/api-tokens`,
      BEEKEEPER_AUTH_RELOAD_SECONDS: '1',
    });
    // Created after the start: until then nobody signs in.
    expect(await status(b, old)).toBe(401);
    const secret = (tokens: string) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'api-tokens', namespace: 'beekeeper' },
      data: { 'tokens.yaml': b64(tokens) },
    });
    expect(
      (await b.kube('POST', '/api/v1/namespaces/beekeeper/secrets', secret(`- {name: ci, token: ${old}}\n`))).status,
    ).toBe(201);
    await eventually(
      () => status(b, old),
      (s) => s === 200,
    );

    const path = '/api/v1/namespaces/beekeeper/secrets/api-tokens';
    await b.kube('PUT', path, secret(`- {name: ci, token: ${old}}\n- {name: ci-next, tokenSha256: ${sha(next)}}\n`));
    await eventually(
      () => status(b, next),
      (s) => s === 200,
    );
    expect(await status(b, old)).toBe(200);

    await b.kube('PUT', path, secret(`- {name: ci-next, tokenSha256: ${sha(next)}}\n`));
    await eventually(
      () => status(b, old),
      (s) => s === 401,
    );
    expect(await status(b, next)).toBe(200);
    for (const t of [old, next]) expect(b.logs()).not.toContain(t);
  });
});
