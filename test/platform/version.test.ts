// GET /version (docs/upgrades.md): every role's HTTP server says which build answers, open like /healthz (no token,
// never rate limited), documented in the API's OpenAPI; the commit comes from the image build or `npm run build`.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpsServer } from '../../src/http/ops-server.js';
import { createMetrics } from '../../src/http/metrics.js';
import { readVersionInfo } from '../../src/version.js';
import { buildTestServer, createHarness, fakeStore, quietLog, testConfig, type Harness } from './support.js';

const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

describe('GET /version', () => {
  let h: Harness;
  let api: FastifyInstance;
  let ops: FastifyInstance;
  beforeAll(async () => {
    h = await createHarness({
      config: testConfig({
        BEEKEEPER_API_TOKENS: 'ci=ci-token-0123456789abcdef',
        BEEKEEPER_RATE_LIMIT_PER_MINUTE: '2',
      }),
    });
    api = await buildTestServer(h);
    ops = await buildOpsServer({
      store: fakeStore(),
      redis: h.producer,
      metrics: createMetrics({ defaultMetrics: false }),
      log: quietLog,
    });
  });
  afterAll(async () => {
    await api?.close();
    await ops?.close();
    await h?.close();
  });

  it('answers on the api role without a token and past the rate limit: version, commit, node, apiGroupVersion, supportedHive', async () => {
    expect((await api.inject({ url: '/v1/jobs' })).statusCode).toBe(401);
    for (let i = 0; i < 4; i++) {
      const res = await api.inject({ url: '/version' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        version: PACKAGE_VERSION,
        commit: expect.toSatisfy((c: unknown) => c === null || /^[0-9a-f]{7,64}$/.test(String(c))),
        node: process.version,
        apiGroupVersion: 'beekeeper.io/v1beta1',
        supportedHive: expect.objectContaining({
          apiVersion: 'hive.openshift.io/v1',
          testedCommit: 'c02e51732cbcd84a43785dc49d70e718d0999cba',
        }),
      });
    }
  });

  it('answers the same on the ops server of worker and scheduler', async () => {
    const res = await ops.inject({ url: '/version' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual((await api.inject({ url: '/version' })).json());
  });

  it('is in the OpenAPI document as getVersion, with no security requirement', async () => {
    const doc = (await api.inject({ url: '/openapi.json' })).json();
    expect(doc.paths['/version'].get).toMatchObject({ operationId: 'getVersion', security: [] });
  });
});

describe('the commit /version reports', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bk-version-'));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return pathToFileURL(join(dir, name));
  };
  const packageJson = file('package.json', '{"version":"9.8.7"}');

  it("is BEEKEEPER_COMMIT (the image build's), else dist/build-info.json's (npm run build), else null", () => {
    const buildInfo = file('build-info.json', '{"commit":"0123456789abcdef0123456789abcdef01234567"}');
    expect(readVersionInfo({ packageJson, buildInfo, commit: 'abcdef1' })).toMatchObject({
      version: '9.8.7',
      commit: 'abcdef1',
    });
    expect(readVersionInfo({ packageJson, buildInfo }).commit).toBe('0123456789abcdef0123456789abcdef01234567');
    expect(readVersionInfo({ packageJson, buildInfo: file('none.json', '{}') }).commit).toBeNull();
    expect(readVersionInfo({ packageJson, buildInfo: pathToFileURL(join(dir, 'missing.json')) }).commit).toBeNull();
  });

  it('is never anything but a hex commit id (a value from the environment is not echoed as is)', () => {
    const buildInfo = file('odd.json', '{"commit":"<script>"}');
    expect(readVersionInfo({ packageJson, buildInfo, commit: 'main; rm -rf /' }).commit).toBeNull();
  });
});
