// Embedded mode: the simulator serves Hive's API, but Beekeeper's own kinds (deploy/crds) and its state
// namespace must exist on the state hub as they would after `kubectl apply -f deploy/crds/` in production.
// Installed before the informers start, so their first list finds the kinds.
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { Clock } from '../clock.js';
import type { HubConfig } from '../config.js';
import { createKubeGateway } from '../kube/gateway.js';
import type { Logger } from '../logger.js';
import type { KubeObject } from '../services/ports.js';

const CRD_DIR = new URL('../../deploy/crds/', import.meta.url);

export async function prepareEmbeddedHub(deps: {
  hub: HubConfig;
  namespace: string;
  clock: Clock;
  log: Logger;
}): Promise<void> {
  const installer = await createKubeGateway({ hubs: [deps.hub], log: deps.log, clock: deps.clock, cachedKinds: [] });
  const createOnce = async (kind: 'CustomResourceDefinition' | 'Namespace', obj: KubeObject) => {
    try {
      await installer.create(kind, deps.hub.name, obj);
    } catch (err) {
      if ((err as { code?: string }).code !== 'Conflict') throw err;
    }
  };
  try {
    for (const file of readdirSync(CRD_DIR)
      .filter((f) => f.endsWith('.yaml'))
      .sort()) {
      await createOnce('CustomResourceDefinition', parse(readFileSync(new URL(file, CRD_DIR), 'utf8')) as KubeObject);
    }
    await createOnce('Namespace', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: deps.namespace } });
  } finally {
    await installer.close();
  }
}
