// Small builders shared by the gateway tests.
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
