import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestClock } from '../../src/clock.js';
import { createKubeGateway } from '../../src/kube/gateway.js';

const dir = mkdtempSync(join(tmpdir(), 'beekeeper-kubeconfig-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A kubeconfig with a token, broken by one bad indentation on the line after it.
const broken = join(dir, 'east.yaml');
writeFileSync(
  broken,
  [
    'apiVersion: v1',
    'clusters:',
    '- cluster:',
    '    server: https://east.example.com:6443',
    '  name: east',
    'users:',
    '- name: admin',
    '  user:',
    '    token: sha256~TOP-SECRET-TOKEN',
    '   oops: [',
    'contexts: []',
    '',
  ].join('\n'),
);

describe('hub kubeconfig that cannot be loaded', () => {
  it('is reported with the file and line, never with the lines around the fault (which hold the token)', async () => {
    const logged: unknown[] = [];
    const log = { info: () => {}, warn: () => {}, error: (obj: object, msg?: string) => logged.push(obj, msg) };
    const gw = await createKubeGateway({
      hubs: [{ name: 'east', kubeconfig: broken }],
      log,
      clock: createTestClock(),
      cachedKinds: ['ClusterDeployment'],
    });
    try {
      const [status] = await gw.hubStatus();
      expect(status).toMatchObject({ name: 'east', reachable: false });
      expect(status!.message).toBe(`hub east: cannot parse ${broken}: bad indentation of a mapping entry at line 10`);
      const failure = await gw
        .get('ClusterDeployment', { hub: 'east', namespace: 'ns', name: 'c1' })
        .catch((err: Error) => err);
      expect(String((failure as Error).message)).toContain('is not usable');
      for (const text of [status!.message, (failure as Error).message, JSON.stringify(logged)])
        expect(text).not.toContain('TOP-SECRET');
    } finally {
      await gw.close();
    }
  });

  it('names a missing file by its error code', async () => {
    const gw = await createKubeGateway({
      hubs: [{ name: 'west', kubeconfig: join(dir, 'missing.yaml') }],
      log: { info() {}, warn() {}, error() {} },
      clock: createTestClock(),
      cachedKinds: [],
    });
    try {
      expect((await gw.hubStatus())[0]!.message).toBe(`hub west: cannot read ${join(dir, 'missing.yaml')} (ENOENT)`);
    } finally {
      await gw.close();
    }
  });
});
