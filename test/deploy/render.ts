// Renders deploy/ with the kubectl on the PATH (its built-in kustomize), as `kubectl apply -k` would.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const run = promisify(execFile);

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const OVERLAYS = ['openshift', 'kubernetes', 'dev'] as const;
export type Overlay = (typeof OVERLAYS)[number];

/**
 * Why these tests cannot run here, if so. The overlays use kustomize 5 (`labels` with includeTemplates, inline
 * transformer configs): kubectl 1.27 or later. Debian's kubernetes-client (1.20, kustomize 2) would misrender them.
 */
export const kubectlMissing: string | undefined = await run('kubectl', ['version', '--client', '-o', 'json']).then(
  ({ stdout }) => {
    const kustomize = String(JSON.parse(stdout).kustomizeVersion ?? '');
    const major = Number(/^v(\d+)\./.exec(kustomize)?.[1] ?? 0);
    return major >= 5
      ? undefined
      : `needs kubectl 1.27+ (kustomize v5) on the PATH, found kustomize ${kustomize || 'none'}`;
  },
  () => 'needs kubectl 1.27+ on the PATH (kubectl kustomize renders deploy/)',
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
