// Renders deploy/ with the kubectl on the PATH (its built-in kustomize), as `kubectl apply -k` would.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const run = promisify(execFile);

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const OVERLAYS = ['openshift', 'kubernetes', 'dev'] as const;
export type Overlay = (typeof OVERLAYS)[number];

export const kubectlMissing: string | undefined = await run('kubectl', ['version', '--client']).then(
  () => undefined,
  () => 'needs kubectl on the PATH (kubectl kustomize renders deploy/)',
);

/** The rendered YAML of deploy/<dir> (e.g. `overlays/dev`, `base`). */
export async function renderYaml(dir: string): Promise<string> {
  const { stdout } = await run('kubectl', ['kustomize', `${repoRoot}deploy/${dir}`], {
    maxBuffer: 16 * 1024 * 1024,
    timeout: 30_000,
  });
  return stdout;
}

export async function render(dir: string): Promise<any[]> {
  return parseAllDocuments(await renderYaml(dir))
    .map((d) => d.toJS())
    .filter((o) => o);
}

export const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PriorityClass',
  'StorageClass',
  'IngressClass',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'SecurityContextConstraints',
]);
