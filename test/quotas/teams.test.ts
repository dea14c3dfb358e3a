// GET /v1/me and /v1/teams through HTTP with static tokens carrying a team, and the CLI's whoami and teams.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { createBody, prerequisites, type Bed } from '../clusters/support.js';
import { as, HUB, seen, startQuotaBed, TOKENS, type Who } from './support.js';

let bed: Bed;
let url: string;

beforeAll(async () => {
  bed = await startQuotaBed();
  await prerequisites(bed, 'alpha');
  const res = await as(bed, 'root').post('/v1/clusters', createBody('alpha', 'a1', { powerState: 'Hibernating' }));
  expect(res.statusCode, res.body).toBe(202);
  await seen(bed, 'ClusterDeployment', { hub: HUB, namespace: 'alpha', name: 'a1' });
  url = await bed.app.listen({ host: '127.0.0.1', port: 0 });
}, 60_000);

afterAll(async () => {
  await bed?.close();
});

describe('GET /v1/me', () => {
  it("says who the token's holder is, with its team and role, and never the token", async () => {
    const res = await as(bed, 'alpha').get('/v1/me');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      name: 'alpha-admin',
      via: 'token',
      groups: [],
      subject: { kind: 'User', name: 'alpha-admin' },
      grants: [{ team: 'alpha', role: 'admin' }],
      platformAdmin: false,
    });
    expect(res.body).not.toContain(TOKENS.alpha.token);
  });

  it('names a token without a team a platform admin', async () => {
    const res = await as(bed, 'root').get('/v1/me');
    expect(res.json()).toMatchObject({ name: 'root', grants: [], platformAdmin: true });
  });

  it('asks for a token when none is sent', async () => {
    const res = await bed.app.inject({ method: 'GET', url: '/v1/me' });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /v1/teams', () => {
  it("lists only the caller's own teams, with the caller's role", async () => {
    const res = await as(bed, 'beta').get('/v1/teams');
    expect(res.json()).toEqual({
      items: [
        {
          name: 'beta',
          role: 'viewer',
          namespaces: ['beta'],
          pools: [],
          quotas: {},
          usage: { claims: 0, clusters: 0, runningClusters: 0 },
        },
      ],
    });
  });

  it('lists every team for a platform admin, each with its use', async () => {
    const res = await as(bed, 'root').get('/v1/teams');
    const items = res.json<{ items: Array<{ name: string; role: string; usage: unknown }> }>().items;
    expect(items.map((t) => [t.name, t.role])).toEqual([
      ['alpha', 'admin'],
      ['beta', 'admin'],
      ['delta', 'admin'],
      ['gamma', 'admin'],
    ]);
    expect(items[0]!.usage).toEqual({ claims: 0, clusters: 1, runningClusters: 0 });
  });

  it("answers another team's name as it answers a missing one: 404", async () => {
    const other = await as(bed, 'alpha').get('/v1/teams/beta');
    const missing = await as(bed, 'alpha').get('/v1/teams/nosuch');
    expect(other.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    const body = (r: typeof other) => ({ ...r.json(), instance: undefined, detail: undefined });
    expect(body(other)).toEqual(body(missing));
    expect(other.json().detail).toBe('team beta not found');
    expect((await as(bed, 'root').get('/v1/teams/beta')).statusCode).toBe(200);
  });

  it('refuses a name that cannot be a team with 400', async () => {
    const res = await as(bed, 'alpha').get('/v1/teams/Not_A_Team');
    expect(res.statusCode).toBe(400);
  });
});

describe('CLI', () => {
  async function cli(who: Who, args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(args, {
      env: { BEEKEEPER_URL: url, BEEKEEPER_TOKEN: TOKENS[who].token },
      out: (t) => out.push(t),
      err: (t) => err.push(t),
      writeSecretFile: async () => undefined,
      signal: new AbortController().signal,
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('whoami prints the name, teams and roles; --json the API answer', async () => {
    const text = await cli('alpha', ['whoami']);
    expect(text.code, text.err).toBe(0);
    expect(text.out).toMatch(/name\s+alpha-admin/);
    expect(text.out).toMatch(/platform admin\s+no/);
    expect(text.out).toMatch(/teams\s+alpha:admin/);
    const json = await cli('root', ['whoami', '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ name: 'root', platformAdmin: true });
  });

  it('teams prints a table of use against quotas; teams NAME one team; --json the items', async () => {
    const table = await cli('root', ['teams']);
    expect(table.code, table.err).toBe(0);
    const lines = table.out.split('\n');
    expect(lines[0]).toMatch(/^TEAM\s+ROLE\s+CLAIMS\s+CLUSTERS\s+RUNNING\s+MAX LIFETIME\s+NAMESPACES$/);
    expect(lines.find((l) => l.startsWith('alpha'))).toMatch(/^alpha\s+admin\s+0\s+1\/2\s+0\/1\s+-\s+alpha$/);
    expect(lines.find((l) => l.startsWith('gamma'))).toMatch(/^gamma\s+admin\s+0\/1\s+0\s+0\s+8h\s+east\/gamma$/);

    const one = await cli('alpha', ['teams', 'alpha']);
    expect(one.out).toMatch(/clusters\s+1\/2/);
    const json = await cli('alpha', ['teams', '--json']);
    expect(JSON.parse(json.out)).toMatchObject([{ name: 'alpha', usage: { clusters: 1 } }]);

    const other = await cli('alpha', ['teams', 'beta']);
    expect(other.code).toBe(1);
    expect(other.err).toContain('team beta not found');
  });
});
