// `beekeeper version`: the CLI's own version, then the server's GET /version; --client asks no server; an
// unreachable server is exit 1 after the CLI's line (kubectl version's behaviour).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { buildTestServer, createHarness, type Harness } from '../platform/support.js';

let h: Harness;
let app: FastifyInstance;
let url: string;

async function cli(args: string[], base = url) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    env: { BEEKEEPER_URL: base },
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    writeSecretFile: async () => undefined,
    signal: new AbortController().signal,
    version: '1.2.3',
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  h = await createHarness();
  app = await buildTestServer(h);
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.close();
  await h?.close();
});

describe('beekeeper version', () => {
  it("prints the CLI's version and the server's: version, Node, resource apiVersion, Hive", async () => {
    const { code, out } = await cli(['version']);
    expect(code).toBe(0);
    const server = (await app.inject({ url: '/version' })).json();
    expect(out).toMatch(/^CLI {5}1\.2\.3\n/);
    expect(out).toContain(`server  ${server.version}`);
    expect(out).toContain(`node ${process.version}, resources beekeeper.io/v1beta1`);
    expect(out).toContain('Hive hive.openshift.io/v1, tested with openshift/hive c02e51732cbc');
  });

  it('--json gives both as one document', async () => {
    const { code, out } = await cli(['version', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({
      cli: { version: '1.2.3' },
      server: (await app.inject({ url: '/version' })).json(),
    });
  });

  it('--client needs no server; without it an unreachable server is exit 1 after the CLI line', async () => {
    const nowhere = 'http://127.0.0.1:9';
    expect(await cli(['version', '--client'], nowhere)).toMatchObject({ code: 0, out: 'CLI     1.2.3' });
    const down = await cli(['version'], nowhere);
    expect(down.code).toBe(1);
    expect(down.out).toBe('CLI     1.2.3');
    expect(down.err).toMatch(/^beekeeper: /);
  });
});
