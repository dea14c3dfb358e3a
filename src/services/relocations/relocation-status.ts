// The Relocation's status as the job keeps it: one copy in memory, written through the status subresource (merge
// patch) after every step, so that a run after a crash reads where the last one got. The job is the status's only
// writer (the API writes spec.abort), so whole fields (the clusters list) are written as they are.
import type { RelocationCluster, RelocationClusterState, RelocationStatus } from '../../hive/resources/relocation.js';
import type { Clock, HiveStore, ObjectRef } from '../ports.js';

export const FINAL_STATES: readonly RelocationClusterState[] = ['moved', 'failed', 'preflight-failed', 'aborted'];
export const isFinal = (c: RelocationCluster) => FINAL_STATES.includes(c.state);

export interface StatusWriter {
  readonly status: RelocationStatus;
  readonly clusters: RelocationCluster[];
  patch(change: Partial<RelocationStatus>): Promise<void>;
  /** Changes one cluster's entry (by namespace/name) and writes the list. */
  cluster(c: { namespace: string; name: string }, change: Partial<RelocationCluster>): Promise<RelocationCluster>;
}

export function statusWriter(
  store: HiveStore,
  ref: ObjectRef,
  initial: RelocationStatus | undefined,
  /** Called once a cluster's entry reaches a final state (for the metrics). */
  onFinal: (c: RelocationCluster) => void = () => undefined,
): StatusWriter {
  const status: RelocationStatus = structuredClone(initial ?? {});
  status.clusters ??= [];
  // Writes go one after another, each with the fields as they are when it is sent: clusters move in parallel,
  // and an older list must never land after a newer one.
  let chain: Promise<unknown> = Promise.resolve();
  const write = (fields: () => Partial<RelocationStatus>): Promise<void> => {
    const sent = chain.then(() =>
      store.mergePatch('Relocation', ref, { status: fields() }, { subresource: 'status' }).then(() => undefined),
    );
    chain = sent.catch(() => undefined);
    return sent;
  };
  return {
    status,
    get clusters() {
      return status.clusters!;
    },
    async patch(change) {
      Object.assign(status, change);
      await write(() => change);
    },
    async cluster(c, change) {
      const entry = status.clusters!.find((x) => x.namespace === c.namespace && x.name === c.name);
      if (!entry) throw new Error(`cluster ${c.namespace}/${c.name} is not in the relocation`);
      const wasFinal = isFinal(entry);
      Object.assign(entry, change);
      for (const [k, v] of Object.entries(change)) if (v === undefined) delete (entry as Record<string, unknown>)[k];
      await write(() => ({ clusters: status.clusters! }));
      if (!wasFinal && isFinal(entry)) onFinal(entry);
      return entry;
    },
  };
}

export const wavesOf = (clusters: readonly RelocationCluster[]) => Math.max(0, ...clusters.map((c) => c.wave));

/** Waves whose every cluster has reached a final state. */
export function wavesDone(clusters: readonly RelocationCluster[]): number {
  let done = 0;
  for (let w = 1; w <= wavesOf(clusters); w++) {
    const inWave = clusters.filter((c) => c.wave === w);
    if (inWave.every(isFinal)) done++;
  }
  return done;
}

/** When a wave started and ended, from its clusters' times (undefined while any of it is not final). */
export function waveSpan(
  clusters: readonly RelocationCluster[],
  wave: number,
): { start: number; end: number } | undefined {
  const inWave = clusters.filter((c) => c.wave === wave);
  if (inWave.length === 0 || !inWave.every(isFinal)) return undefined;
  const times = (pick: (c: RelocationCluster) => string | undefined) =>
    inWave
      .map(pick)
      .filter((t): t is string => Boolean(t))
      .map(Date.parse);
  const starts = times((c) => c.startedAt);
  const ends = times((c) => c.finishedAt);
  if (ends.length === 0) return undefined;
  return { start: starts.length ? Math.min(...starts) : Math.max(...ends), end: Math.max(...ends) };
}

/** Now plus the average duration of the waves done so far (and the pause) for each wave left. */
export function etaOf(clusters: readonly RelocationCluster[], clock: Clock, pauseSeconds: number): string | undefined {
  const total = wavesOf(clusters);
  const spans: number[] = [];
  for (let w = 1; w <= total; w++) {
    const s = waveSpan(clusters, w);
    if (s) spans.push(s.end - s.start);
  }
  if (spans.length === 0) return undefined;
  const left = total - wavesDone(clusters);
  const average = spans.reduce((a, b) => a + b, 0) / spans.length;
  return new Date(clock.now() + left * (average + pauseSeconds * 1000)).toISOString();
}
