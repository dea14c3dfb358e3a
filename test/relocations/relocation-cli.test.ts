// `beekeeper relocate`, `relocations` and `relocation status|abort` against a real API and worker on two
// simulated hubs: the relocation job really moves the clusters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
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

beforeAll(async () => {
  bed = await startTwoHubBed();
  url = await bed.app.listen({ host: '127.0.0.1', port: 0 });
  await prerequisites(bed, EAST, 'cli');
  await prerequisites(bed, EAST, 'clash');
  await prerequisites(bed, WEST, 'clash');
  await prerequisites(bed, EAST, 'halt');
  await Promise.all([
    install(EAST, 'cli', 'one'),
    install(EAST, 'clash', 'twin'),
    install(WEST, 'clash', 'twin'),
    install(EAST, 'halt', 'first'),
    install(EAST, 'halt', 'second'),
  ]);
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
    const allAndMore = await cli(['relocate', '--from', EAST, '--to', WEST, '--all', '--namespace', 'cli']);
    expect(allAndMore.code).toBe(2);
    expect(allAndMore.err).toContain('or --all');
    const twoWaves = await cli(['relocate', '--from', EAST, '--to', WEST, '--all', '--wave', '2', '--wave-size', '2']);
    expect(twoWaves.code).toBe(2);
    expect(twoWaves.err).toContain('not both');
    expect((await cli(['relocate', '--from', EAST, '--to', WEST, '--all', '--wave', '0'])).err).toContain(
      '--wave: a whole number of clusters',
    );
  });

  it('--selector key=value,... picks clusters by label; --all is every cluster of the source hub', async () => {
    await bed.system.store.mergePatch(
      'ClusterDeployment',
      { hub: EAST, namespace: 'halt', name: 'first' },
      { metadata: { labels: { tier: 'gold', zone: 'a' } } },
    );
    await bed.system.store.mergePatch(
      'ClusterDeployment',
      { hub: EAST, namespace: 'halt', name: 'second' },
      { metadata: { labels: { tier: 'gold', zone: 'b' } } },
    );
    await bed.system.store.waitFor<ClusterDeployment, true>(
      'ClusterDeployment',
      { hub: EAST, namespace: 'halt', name: 'second' },
      (cd) => (cd?.metadata.labels?.zone === 'b' ? true : undefined),
      { timeoutMs: 10_000 },
    );
    const labelled = await cli([
      'relocate',
      '--from',
      EAST,
      '--to',
      WEST,
      '--selector',
      'tier=gold,zone=a',
      '--dry-run',
    ]);
    expect(labelled.code, labelled.err).toBe(0);
    expect(labelled.out).toMatch(/halt\/first\s+yes/);
    expect(labelled.out).not.toContain('halt/second');
    expect(labelled.out).toContain('1 of 1 clusters can move');

    const all = await cli(['relocate', '--from', EAST, '--to', WEST, '--all', '--dry-run', '--json']);
    expect(all.code).toBe(1); // clash/twin fails preflight (a twin on west)
    const report = JSON.parse(all.out).report as { clusters: Array<{ namespace: string; name: string; ok: boolean }> };
    expect(report.clusters.map((c) => `${c.namespace}/${c.name}`).sort()).toEqual([
      'clash/twin',
      'cli/one',
      'halt/first',
      'halt/second',
    ]);
    expect(report.clusters.filter((c) => !c.ok).map((c) => c.name)).toEqual(['twin']);
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
    const res = await cli([
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
      '--wave',
      '1',
      '--pause',
      '1s',
      '--wait',
      '60s',
    ]);
    expect(res.code, res.err).toBe(0);
    const id = /relocation (reloc-\w+): 2 clusters, 1 wave\(s\), job /.exec(res.err)?.[1];
    expect(id, res.err).toBeDefined();
    expect(res.err).toMatch(new RegExp(`${id} (Pending|Running)`));
    expect(res.out).toContain(`relocation ${id}: east -> west, Succeeded`);
    expect(res.out).toMatch(/cli\/one\s+1\s+moved\s+west/);
    expect(res.out).toMatch(/clash\/twin\s+1\s+preflight-failed\s+east\s+name-conflict/);

    const list = await cli(['relocations']);
    expect(list.out).toMatch(new RegExp(`${id}\\s+east\\s+west\\s+Succeeded\\s+1/2`));
    const one = await cli(['relocations', id!, '--json']);
    expect(JSON.parse(one.out)).toMatchObject({ id, phase: 'Succeeded', waves: { size: 1, pauseSeconds: 1 } });

    const abort = await cli(['relocation', 'abort', id!]);
    expect(abort.code).toBe(1);
    expect(abort.err).toContain('already ended (Succeeded)');
  }, 90_000);

  it('relocation abort stops it and says where each cluster is', async () => {
    // Two waves an hour apart: the abort lands in the first wave or the pause.
    const res = await cli([
      'relocate',
      '--from',
      EAST,
      '--to',
      WEST,
      '--namespace',
      'halt',
      '--wave-size',
      '1',
      '--pause',
      '1h',
      '--json',
    ]);
    expect(res.code, res.err).toBe(0);
    const id = JSON.parse(res.out).relocation.id as string;
    const abort = await cli(['relocation', 'abort', id, '--wait', '60s', '--as', 'ops']);
    expect(abort.code, abort.err).toBe(0);
    expect(abort.err).toContain(`relocation ${id} Aborted`);
    expect(abort.out).toMatch(/halt\/first\s+1\s+(aborted\s+east|moved\s+west)/);
    expect(abort.out).toMatch(/halt\/second\s+2\s+aborted\s+east/);
    const status = await cli(['relocation', 'status', id]);
    expect(status.code).toBe(0);
    expect(status.out).toContain(`relocation ${id}: east -> west, Aborted`);
  }, 90_000);
});
