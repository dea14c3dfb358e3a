// Beekeeper's own CRDs (deploy/crds/*.yaml), applied to the state hub at start-up so schedules, overrides,
// policies and webhook endpoints can be stored there. Applying is idempotent: an existing CRD is replaced.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { HiveStore, KubeObject } from '../ports.js';

export const DEFAULT_CRD_DIR = fileURLToPath(new URL('../../../deploy/crds/', import.meta.url));

export async function loadBeekeeperCrds(dir = DEFAULT_CRD_DIR): Promise<KubeObject[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort();
  return Promise.all(files.map(async (f) => parse(await readFile(join(dir, f), 'utf8')) as KubeObject));
}

export async function applyBeekeeperCrds(store: HiveStore, hub: string, crds: KubeObject[]): Promise<void> {
  for (const crd of crds) {
    const ref = { hub, name: crd.metadata.name };
    const existing = await store.get<KubeObject>('CustomResourceDefinition', ref);
    if (!existing) await store.create('CustomResourceDefinition', hub, crd);
    else await store.replace('CustomResourceDefinition', ref, { ...crd, metadata: { ...crd.metadata, resourceVersion: existing.metadata.resourceVersion } });
  }
}
