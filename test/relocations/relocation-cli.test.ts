// `beekeeper relocate`, `relocations` and `relocation status|abort` against a real API on two simulated hubs.
// The relocation job is played by the test where a command waits for it (this lane has none).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
import type { KubeObject } from '../../src/services/ports.js';
import { EAST, WEST, createBody, prerequisites, startTwoHubBed, type TwoHubBed } from './support.js';

let bed: TwoHubBed;
let url: string;

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    env: { BEEKEEPER_URL: url },
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    writeSecretFile: async () => undefined,
    signal: new AbortController().signal,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function install(hub: string, namespace: string, name: string) {
  const res = await bed.app.inject({
    method: 'POST',
    url: '/v1/clusters?wait=60',
    payload: createBody(hub, namespace, name),
  });
  expect(res.statusCode, res.body).toBe(200);
  // The install job ends at install; Hive then starts the cluster (the resume steps) before it is Running.
  await bed.system.store.waitFor<ClusterDeployment, true>(
    'ClusterDeployment',
    { hub, namespace, name },
    (cd) => (cd?.status?.powerState === 'Running' ? true : undefined),
    { timeoutMs: 30_000 },
  );
}

const setPhase = (id: string, phase: string) =>
  bed.system.store.mergePatch(
    'Relocation',
    { hub: EAST, namespace: bed.config.stateNamespace, name: id },
    { status: { phase } },
    { subresource: 'status' },
  );

beforeAll(async () => {
  bed = await startTwoHubBed();
  url = await bed.app.listen({ host: '127.0.0.1', port: 0 });
  await prerequisites(bed, EAST, 'cli');
  await prerequisites(bed, EAST, 'clash');
  await prerequisites(bed, WEST, 'clash');
  await Promise.all([install(EAST, 'cli', 'one'), install(EAST, 'clash', 'twin'), install(WEST, 'clash', 'twin')]);
}, 90_000);

afterAll(() => bed?.close());

describe('beekeeper relocate', () => {
  it('refuses bad usage with exit code 2', async () => {
    expect((await cli(['relocate', '--to', WEST, '--cluster', 'cli/one'])).err).toContain(
      'give --from HUB and --to HUB',
    );
    const both = await cli(['relocate', '--from', EAST, '--to', WEST, '--cluster', 'cli/one', '--team', 't']);
    expect(both.code).toBe(2);
    expect(both.err).toContain('give --cluster NS/NAME');
    expect((await cli(['relocate', '--from', EAST, '--to', WEST, '--cluster', 'one'])).err).toContain(
      'not namespace/name',
    );
    expect((await cli(['relocation', 'frob', 'x'])).code).toBe(2);
  });

  it('a dry run prints the preflight table: each failing cluster, why, and the fix', async () => {
    const res = await cli([
      'relocate',
      '--from',
      EAST,
      '--to',
      WEST,
      '--cluster',
      'cli/one',
      '--cluster',
      'clash/twin',
      '--dry-run',
    ]);
    expect(res.code).toBe(1);
    expect(res.out).toMatch(/clash\/twin\s+NO\s+ERROR name-conflict/);
    expect(res.out).toContain('fix: delete clash/twin on west');
    expect(res.out).toMatch(/cli\/one\s+yes/);
    expect(res.out).toContain('1 of 2 clusters can move');
    expect((await cli(['relocate', '--from', EAST, '--to', WEST, '--namespace', 'cli', '--dry-run'])).code).toBe(0);
  });

  it('without --skip-failed a failing cluster refuses the relocation (exit 1, table, nothing created)', async () => {
    const res = await cli([
      'relocate',
      '--from',
      EAST,
      '--to',
      WEST,
      '--cluster',
      'cli/one',
      '--cluster',
      'clash/twin',
    ]);
    expect(res.code).toBe(1);
    expect(res.out).toContain('name-conflict');
    expect(res.err).toContain('fail preflight');
    expect((await cli(['relocations'])).out).toBe('no relocations');
  });

  it('relocates in waves, lists it, shows it, and --wait follows it to the end', async () => {
    const started = cli([
      'relocate',
      '--from',
      EAST,
      '--to',
      WEST,
      '--namespace',
      'cli',
      '--namespace',
      'clash',
      '--skip-failed',
      '--wave-size',
      '1',
      '--pause',
      '1m',
      '--wait',
      '30s',
    ]);
    // Play the job: once the Relocation exists, run it to Succeeded.
    const id = await new Promise<string>((resolve) => {
      const off = bed.system.store.onChange<KubeObject>('Relocation', (_h, type, obj) => {
        if (type !== 'ADDED') return;
        off();
        resolve(obj.metadata.name);
      });
    });
    await new Promise((r) => setTimeout(r, 300));
    await setPhase(id, 'Running');
    await new Promise((r) => setTimeout(r, 300));
    await setPhase(id, 'Succeeded');
    const res = await started;
    expect(res.code, res.err).toBe(0);
    expect(res.err).toContain(`relocation ${id}: 2 clusters, 1 wave(s), job `);
    expect(res.err).toContain(`${id} Running`);
    expect(res.out).toContain(`relocation ${id}: east -> west, Succeeded`);
    expect(res.out).toMatch(/clash\/twin\s+1\s+preflight-failed\s+east\s+name-conflict/);

    const list = await cli(['relocations']);
    expect(list.out).toMatch(new RegExp(`${id}\\s+east\\s+west\\s+Succeeded`));
    const one = await cli(['relocations', id, '--json']);
    expect(JSON.parse(one.out)).toMatchObject({ id, phase: 'Succeeded', waves: { size: 1, pauseSeconds: 60 } });

    const abort = await cli(['relocation', 'abort', id]);
    expect(abort.code).toBe(1);
    expect(abort.err).toContain('already ended (Succeeded)');
  });

  it('relocation abort asks to stop and says where each cluster is; exit 3 while it is not Aborted yet', async () => {
    const res = await cli(['relocate', '--from', EAST, '--to', WEST, '--cluster', 'cli/one', '--json']);
    expect(res.code, res.err).toBe(0);
    const id = JSON.parse(res.out).relocation.id as string;
    const abort = await cli(['relocation', 'abort', id, '--wait', '1s', '--as', 'ops']);
    expect(abort.code).toBe(3);
    expect(abort.err).toContain(`abort of ${id} requested`);
    expect(abort.out).toMatch(/cli\/one\s+1\s+pending\s+east/);
    await setPhase(id, 'Aborted');
    const status = await cli(['relocation', 'status', id, '--wait', '5s']);
    expect(status.code).toBe(1);
    expect(status.out).toContain('Aborted');
  });
});
