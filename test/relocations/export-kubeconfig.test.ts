import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { exportKubeconfig } from '../../src/kube/export-kubeconfig.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig.js';

const dir = mkdtempSync(join(tmpdir(), 'bk-kubeconfig-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('the kubeconfig Beekeeper hands to Hive for a destination hub', () => {
  it('keeps only the context in use and inlines what the original refers to by path', () => {
    const ca = file('ca.crt', 'CA PEM');
    const kubeconfig = file(
      'kubeconfig',
      toYaml({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          { name: 'west', cluster: { server: 'https://west.example:6443', 'certificate-authority': ca } },
          { name: 'other', cluster: { server: 'https://other.example:6443' } },
        ],
        users: [
          { name: 'bk', user: { token: 'sekret' } },
          { name: 'nobody', user: { token: 'other' } },
        ],
        contexts: [
          { name: 'west-ctx', context: { cluster: 'west', user: 'bk' } },
          { name: 'other-ctx', context: { cluster: 'other', user: 'nobody' } },
        ],
        'current-context': 'other-ctx',
      }),
    );
    const out = JSON.parse(exportKubeconfig({ name: 'west', kubeconfig, context: 'west-ctx' }));
    expect(out['current-context']).toBe('west');
    expect(out.clusters).toEqual([
      {
        name: 'west',
        cluster: {
          server: 'https://west.example:6443',
          'certificate-authority-data': Buffer.from('CA PEM').toString('base64'),
        },
      },
    ]);
    expect(out.users).toEqual([{ name: 'west', user: { token: 'sekret' } }]);
  });

  it('keeps the identity Beekeeper impersonates (as, as-uid, as-groups, as-user-extra)', () => {
    const as = {
      as: 'beekeeper-relocator',
      'as-uid': 'uid-1',
      'as-groups': ['hive-relocators'],
      'as-user-extra': { reason: ['relocation'] },
    };
    const kubeconfig = file(
      'impersonating',
      toYaml({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: 'https://c.example:6443' } }],
        users: [{ name: 'u', user: { token: 'sekret', ...as } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    const out = JSON.parse(exportKubeconfig({ name: 'c', kubeconfig }));
    expect(out.users).toEqual([{ name: 'c', user: { token: 'sekret', ...as } }]);
  });

  it('carries the proxy-url a hub is reached through, as client-go reads it', () => {
    const proxyUrl = 'http://relay:pa55@proxy.example:3128';
    const kubeconfig = file(
      'proxied',
      toYaml({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: 'https://c.example:6443', 'proxy-url': proxyUrl } }],
        users: [{ name: 'u', user: { token: 'sekret' } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    const out = exportKubeconfig({ name: 'c', kubeconfig });
    expect(JSON.parse(out).clusters).toEqual([
      { name: 'c', cluster: { server: 'https://c.example:6443', 'proxy-url': proxyUrl } },
    ]);
    // Read back as a hub's kubeconfig is read: the same proxy.
    expect(loadKubeConfig({ name: 'c', kubeconfigData: out }).getCurrentCluster()?.proxyUrl).toBe(proxyUrl);
  });

  it('refuses a hub reached through an exec plugin, which would run on the source hub', () => {
    const kubeconfig = file(
      'exec',
      toYaml({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: 'https://c.example:6443' } }],
        users: [{ name: 'u', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'aws' } } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    expect(() => exportKubeconfig({ name: 'east', kubeconfig })).toThrow(
      /exec credential plugin cannot be handed to Hive/,
    );
  });
});
