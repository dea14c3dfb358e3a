// An informer's LIST in pages of 500, as client-go's reflector lists (tools/pager, the same page size): a hub with
// 10,000 ClusterDeployments never arrives as one response of a hundred megabytes, whose text, parse and copies
// would set the process's heap high-water mark (RSS stays near it long after). Each page is slimmed as it
// arrives, so the cache never holds the write bookkeeping either. A continue token the server has expired
// (410 Gone: the list took longer than etcd's compaction window) falls back to one full list, as client-go's pager
// does (FullListIfExpired).
import { ApiException, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import type { RestClient } from './rest-client.js';

export const LIST_PAGE_SIZE = 500;

/** client-node's V1ListMeta names the field `_continue` (its class mapping); on the wire, as parsed here, it is `continue`. */
interface Page {
  items: KubernetesObject[];
  metadata?: { resourceVersion?: string; continue?: string };
}

export async function listInPages(
  rest: RestClient,
  path: string,
  opts: {
    /** Sends one request through the hub's request gate (request-gate.ts). */
    send: <T>(request: () => Promise<T>) => Promise<T>;
    transform: <T>(obj: T) => T;
    pageSize?: number;
  },
): Promise<KubernetesListObject<KubernetesObject>> {
  const items: KubernetesObject[] = [];
  let cont: string | undefined;
  let resourceVersion: string | undefined;
  do {
    let page: Page;
    try {
      page = await opts.send(() =>
        rest.request<Page>('GET', path, { query: { limit: opts.pageSize ?? LIST_PAGE_SIZE, continue: cont } }),
      );
    } catch (err) {
      if (!(cont && err instanceof ApiException && err.code === 410)) throw err;
      const full = await opts.send(() => rest.request<KubernetesListObject<KubernetesObject>>('GET', path));
      full.items = full.items.map(opts.transform);
      return full;
    }
    for (const item of page.items) items.push(opts.transform(item));
    // Every page of one list is the same snapshot; its resourceVersion is where the watch starts.
    resourceVersion ??= page.metadata?.resourceVersion;
    cont = page.metadata?.continue || undefined;
  } while (cont);
  return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion }, items };
}
