// Storage version migration of Beekeeper's own resources (docs/upgrades.md): once the new CRDs make v1beta1 the
// storage version, objects written before stay encoded as v1alpha1 in etcd until something writes them again, and
// the CRD's status.storedVersions keeps listing v1alpha1 until someone says no object is stored at it any more.
// This does what kube-storage-version-migrator does: read every object at the storage version and write it back
// unchanged (the API server compares the encoded bytes, so an object already stored at v1beta1 is not written and
// keeps its resourceVersion), then set status.storedVersions to the storage version alone. Only after that may a
// later release stop serving v1alpha1. Safe to run twice, and while Beekeeper runs: a write conflict means someone
// wrote the object after it was read, which stored it at the storage version already.
import { ApiException } from '@kubernetes/client-node';
import { loadKubeConfig, type HubConnection } from './kubeconfig.js';
import { createRestClient, type RestClient } from './rest-client.js';

export interface CrdMigration {
  /** The CRD's name, e.g. operations.beekeeper.io. */
  crd: string;
  /** Objects found (all namespaces). */
  objects: number;
  /** Objects the API server wrote again (their resourceVersion changed): they were stored at an older version. */
  rewritten: number;
  /** Objects written or deleted by someone else between the read and the write: stored at the storage version. */
  changedMeanwhile: number;
  storedVersionsBefore: string[];
  storedVersionsAfter: string[];
}

export interface StorageMigrationOptions {
  rest: RestClient;
  group: string;
  /** The storage version every object must end up at (BEEKEEPER VERSION). */
  version: string;
  plurals: readonly string[];
  /** Report only: count the objects, write nothing. */
  dryRun?: boolean;
  progress?: (line: string) => void;
}

/** A client for one hub, as the gateway makes them (kubeconfig file and context, inline kubeconfig, in-cluster). */
export function migrationClient(connection: HubConnection): RestClient {
  // A one-shot command: the kubeconfig is read once.
  const kubeConfig = loadKubeConfig(connection);
  return createRestClient(() => kubeConfig, { timeoutMs: 60_000 });
}

interface Crd {
  spec: { versions: Array<{ name: string; storage?: boolean; served?: boolean }> };
  status?: { storedVersions?: string[] };
}
interface Item {
  metadata: { name: string; namespace?: string; resourceVersion?: string };
}

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

export async function migrateStorage(opts: StorageMigrationOptions): Promise<CrdMigration[]> {
  const { rest, group, version } = opts;
  const report: CrdMigration[] = [];
  for (const plural of opts.plurals) {
    const name = `${plural}.${group}`;
    const crd = await call(`read CRD ${name}`, () => rest.request<Crd>('GET', `${CRD_PATH}/${name}`));
    const storage = crd.spec.versions.find((v) => v.storage)?.name;
    if (storage !== version) {
      throw new Error(
        `CRD ${name} stores ${storage ?? 'no version'}, not ${version}: apply this release's CRDs first ` +
          '(kubectl apply -f deploy/crds/), then run the migration',
      );
    }
    const before = crd.status?.storedVersions ?? [];
    const entry: CrdMigration = {
      crd: name,
      objects: 0,
      rewritten: 0,
      changedMeanwhile: 0,
      storedVersionsBefore: before,
      storedVersionsAfter: before,
    };
    let cont: string | undefined;
    do {
      const page = await call(`list ${name}`, () =>
        rest.request<{ items: Item[]; metadata: { continue?: string } }>('GET', `/apis/${group}/${version}/${plural}`, {
          query: { limit: 500, continue: cont },
        }),
      );
      for (const item of page.items) {
        entry.objects += 1;
        if (opts.dryRun) continue;
        const { namespace, name: objName, resourceVersion } = item.metadata;
        const path = `/apis/${group}/${version}/namespaces/${namespace}/${plural}/${encodeURIComponent(objName)}`;
        try {
          const written = await rest.request<Item>('PUT', path, { body: item, timeoutMs: 60_000 });
          if (written.metadata.resourceVersion !== resourceVersion) entry.rewritten += 1;
        } catch (err) {
          if (err instanceof ApiException && (err.code === 409 || err.code === 404)) entry.changedMeanwhile += 1;
          else throw new Error(`write ${plural} ${namespace}/${objName} back: ${describe(err)}`, { cause: err });
        }
      }
      cont = page.metadata.continue || undefined;
    } while (cont);
    if (!opts.dryRun && (before.length !== 1 || before[0] !== version)) {
      // A merge patch replaces the list. The API server refuses a list without the storage version.
      const patched = await call(`update ${name} status.storedVersions`, () =>
        rest.request<Crd>('PATCH', `${CRD_PATH}/${name}/status`, {
          body: { status: { storedVersions: [version] } },
          contentType: 'application/merge-patch+json',
        }),
      );
      entry.storedVersionsAfter = patched.status?.storedVersions ?? [];
    }
    opts.progress?.(
      `${name}: ${entry.objects} objects, ${entry.rewritten} rewritten, ${entry.changedMeanwhile} changed meanwhile; ` +
        `storedVersions ${JSON.stringify(entry.storedVersionsBefore)} -> ${JSON.stringify(entry.storedVersionsAfter)}` +
        (opts.dryRun ? ' (dry run: nothing written)' : ''),
    );
    report.push(entry);
  }
  return report;
}

async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw new Error(`${what}: ${describe(err)}`, { cause: err });
  }
}

/** The API server's own message (a Status body), never a request's headers or the kubeconfig. */
function describe(err: unknown): string {
  if (err instanceof ApiException) {
    try {
      const status = JSON.parse(String(err.body)) as { message?: string };
      if (status.message) return `${err.code} ${status.message}`;
    } catch {
      // not a Status
    }
    return `HTTP ${err.code}`;
  }
  return err instanceof Error ? err.message : String(err);
}
