// The raw side of bench/sweep-vs-loops.ts: plain HTTP to each hub's API server (undici, keep-alive), the baselines'
// merge-PATCH of one cluster, a watch on every hub that times the first PATCH, every PATCH accepted and every cluster
// settled, and the LIST per hub that checks a round settled.
import { request, type Agent } from 'undici';
import type { Bed } from './bed.js';

export type Target = 'Hibernating' | 'Running';
type Hub = Bed['hubs'][number];

export interface Watch {
  /** performance.now() of the first event whose spec.powerState is the target. */
  first: Promise<number>;
  /** performance.now() once every cluster's latest event has spec.powerState at the target (every PATCH accepted). */
  patched: Promise<number>;
  /** performance.now() once every cluster's latest event has spec and status at the target. */
  settled: Promise<number>;
  stop(): void;
}

/** Calls on the bed's hubs for the ClusterDeployments of `ns`, `clusters` of them in all, `onHub(i)` on hub i. */
export function hubCalls(opts: {
  hubs: readonly Hub[];
  dispatcher: Agent;
  ns: string;
  clusters: number;
  onHub: (i: number) => number;
}) {
  const { hubs, dispatcher, ns: NS, clusters: CLUSTERS, onHub } = opts;
  const cdPath = (ns: string, name?: string) =>
    `/apis/hive.openshift.io/v1/namespaces/${ns}/clusterdeployments${name ? `/${name}` : ''}`;

  async function kube(hub: Hub, method: 'GET' | 'PATCH', path: string, body?: unknown) {
    const res = await request(`${hub.url}${path}`, {
      method,
      dispatcher,
      headers: {
        authorization: `Bearer ${hub.token}`,
        ...(body ? { 'content-type': 'application/merge-patch+json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 200)}`);
    return JSON.parse(text) as Record<string, unknown>;
  }

  /** A watch on every hub from the current resourceVersion; resolves once every watch is open. */
  async function openWatch(target: Target): Promise<Watch> {
    const ac = new AbortController();
    const opened = await Promise.all(
      hubs.map(async (h) => {
        const list = await kube(h, 'GET', `${cdPath(NS)}?limit=1`);
        const rv = (list.metadata as { resourceVersion: string }).resourceVersion;
        return request(`${h.url}${cdPath(NS)}?watch=true&resourceVersion=${rv}`, {
          headers: { authorization: `Bearer ${h.token}` },
          dispatcher,
          signal: ac.signal,
        });
      }),
    );
    let onFirst: (at: number) => void = () => undefined;
    let onPatched: (at: number) => void = () => undefined;
    let onSettled: (at: number) => void = () => undefined;
    const first = new Promise<number>((r) => (onFirst = r));
    const patched = new Promise<number>((r) => (onPatched = r));
    const settled = new Promise<number>((r) => (onSettled = r));
    const atTarget = new Set<string>();
    const specAtTarget = new Set<string>();
    let seenFirst = false;
    const ended = opened.map(async (res, i) => {
      let buf = '';
      for await (const chunk of res.body) {
        buf += (chunk as Buffer).toString();
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const ev = JSON.parse(buf.slice(0, nl)) as {
            type: string;
            object: { metadata: { name: string }; spec?: { powerState?: string }; status?: { powerState?: string } };
          };
          buf = buf.slice(nl + 1);
          if (ev.type !== 'MODIFIED') continue;
          const spec = ev.object.spec?.powerState ?? 'Running';
          if (spec === target && !seenFirst) {
            seenFirst = true;
            onFirst(performance.now());
          }
          const key = `${i}/${ev.object.metadata.name}`;
          if (spec === target) specAtTarget.add(key);
          else specAtTarget.delete(key);
          if (specAtTarget.size === CLUSTERS) onPatched(performance.now());
          if (spec === target && ev.object.status?.powerState === target) atTarget.add(key);
          else atTarget.delete(key);
          if (atTarget.size === CLUSTERS) onSettled(performance.now());
        }
      }
    });
    for (const e of ended) e.catch(() => undefined);
    return { first, patched, settled, stop: () => ac.abort() };
  }

  const patchOne = (c: { hub: Hub; name: string }, target: Target) =>
    kube(c.hub, 'PATCH', cdPath(NS, c.name), { spec: { powerState: target } });

  /** How many clusters one LIST per hub shows away from `target` (the watch said so first; this is the check). */
  async function unsettledByList(target: Target): Promise<number> {
    let away = 0;
    for (const [i, h] of hubs.entries()) {
      const list = await kube(h, 'GET', cdPath(NS));
      const items = list.items as Array<{ spec?: { powerState?: string }; status?: { powerState?: string } }>;
      away += Math.abs(onHub(i) - items.length);
      away += items.filter(
        (i) => (i.spec?.powerState ?? 'Running') !== target || i.status?.powerState !== target,
      ).length;
    }
    return away;
  }

  return { openWatch, patchOne, unsettledByList };
}
