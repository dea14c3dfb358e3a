// Small builders shared by the gateway tests.
import { lstatSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClusterDeployment } from '../../src/hive/types.js';

export const quietLog = { info: () => {}, warn: () => {}, error: () => {} };

export function cd(
  name: string,
  namespace: string,
  extra: Partial<ClusterDeployment['spec']> = {},
  labels: Record<string, string> = {},
): ClusterDeployment {
  return {
    apiVersion: 'hive.openshift.io/v1',
    kind: 'ClusterDeployment',
    metadata: { name, namespace, labels },
    spec: {
      clusterName: name,
      baseDomain: 'example.com',
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
      pullSecretRef: { name: 'pull-secret' },
      provisioning: {
        installConfigSecretRef: { name: `${name}-install-config` },
        releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.0-x86_64',
      },
      ...extra,
    },
  };
}

/**
 * A Secret (or projected) volume at `dir`, written as the kubelet's AtomicWriter does: the files go into a fresh
 * timestamped directory, a `..data_tmp` symlink to it is renamed over `..data`, the previous directory is removed;
 * each visible file is a symlink through `..data`. Returns the function that writes a new version.
 */
export function secretVolume(dir: string): (files: Record<string, string>) => void {
  let generation = 0;
  let previous: string | undefined;
  return (files) => {
    const stamp = `..2026_11_24_09_00_00.${++generation}`;
    mkdirSync(join(dir, stamp), { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, stamp, name), text);
    symlinkSync(stamp, join(dir, '..data_tmp'));
    renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
    for (const name of Object.keys(files)) {
      try {
        lstatSync(join(dir, name));
      } catch {
        symlinkSync(join('..data', name), join(dir, name));
      }
    }
    if (previous) rmSync(join(dir, previous), { recursive: true });
    previous = stamp;
  };
}
