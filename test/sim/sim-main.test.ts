import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { R, createKubeClient, targetFromKubeconfig } from '../../src/sim/client/index.js';
import { waitFor } from './sim-helpers.js';
import { compiledMain } from '../support/compiled-src.js';

function runSim(args: string[]) {
  const child = spawn(process.execPath, [...compiledMain('sim'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', () => stdout.includes('ready\n') && resolve());
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  ready.catch(() => {}); // only the first test awaits it
  return { child, ready, exited, out: () => stdout, err: () => stderr };
}

describe('npm run sim', () => {
  it('serves two seeded hubs, writes their kubeconfig, prints one ready line and stops cleanly on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-main-'));
    const kubeconfigPath = join(dir, 'sim.kubeconfig');
    const sim = runSim([
      '--hubs',
      '2',
      '--kubeconfig-out',
      kubeconfigPath,
      '--seed',
      'demo',
      '--speed',
      '2000',
      '--log-level',
      'warn',
    ]);
    try {
      await sim.ready;
      expect(sim.out()).toBe('ready\n');
      const text = readFileSync(kubeconfigPath, 'utf8');
      const doc = parseYaml(text);
      expect(doc.contexts.map((c: any) => c.name)).toEqual(['hub-1', 'hub-2']);
      expect(doc['current-context']).toBe('hub-1');
      const hub2 = createKubeClient(targetFromKubeconfig(text, 'hub-2'));
      const pool = await waitFor(
        hub2,
        R.clusterPool,
        'demo',
        'demo-aws',
        (p) => p?.status?.ready === 1 && p.status.size === 2,
      );
      expect(pool!.spec).toMatchObject({ size: 2, runningCount: 1 });
      expect((await hub2.list(R.clusterImageSet)).items.map((i) => i.metadata.name)).toContain('openshift-v4.16.3');
    } finally {
      sim.child.kill('SIGTERM');
    }
    expect(await sim.exited).toBe(0);
  });

  it('refuses a bad flag with a clear message and exit code 2', async () => {
    const sim = runSim(['--speed', 'fast']);
    expect(await sim.exited).toBe(2);
    expect(sim.err()).toContain('--speed must be a positive number, got "fast"');
    expect(sim.out()).toBe('');
  });
});
