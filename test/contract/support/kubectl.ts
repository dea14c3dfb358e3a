// kubectl for the contract tests: the binary (when it is on the PATH) and the manifest they create from a file.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export const run = promisify(execFile);
export const hasKubectl = await run('kubectl', ['version', '--client']).then(
  () => true,
  () => false,
);

/** A ClusterDeployment manifest as a user would write it for `kubectl create -f`. */
export function clusterDeploymentYaml(name: string, ns: string): string {
  return [
    'apiVersion: hive.openshift.io/v1',
    'kind: ClusterDeployment',
    'metadata:',
    `  name: ${name}`,
    `  namespace: ${ns}`,
    'spec:',
    '  baseDomain: example.com',
    `  clusterName: ${name}`,
    '  platform:',
    '    aws:',
    '      region: us-east-1',
    '      credentialsSecretRef:',
    '        name: aws-creds',
    '  pullSecretRef:',
    '    name: pull-secret',
    '',
  ].join('\n');
}
