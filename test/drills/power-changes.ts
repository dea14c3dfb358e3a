// Power changes as the hub saw them, counted from a watch on the ClusterDeployments (outside Beekeeper, as an
// operator would): each time a cluster's spec.powerState or status.powerState moves to a state from another one is
// one change, so a cluster hibernated, woken and hibernated again counts twice, and one that never moved is absent.
// The final state alone would hide a cluster patched twice; these lists feed `tally()`, one key per change.
import { R, type KubeClient } from '../../src/sim/client/index.js';

export interface PowerChanges {
  /** A cluster's name once per time its spec.powerState (what was asked of Hive) became `state`. */
  asked(state: string): string[];
  /** A cluster's name once per time its status.powerState (what Hive reports) became `state`. */
  reached(state: string): string[];
  /** The status.powerState last seen per cluster. */
  now(name: string): string | undefined;
  stop(): void;
}

export function watchPowerChanges(kube: KubeClient, namespace: string): PowerChanges {
  const spec = new Map<string, string>();
  const status = new Map<string, string>();
  const specChanges: Array<[string, string]> = [];
  const statusChanges: Array<[string, string]> = [];
  let gone = false;
  const handle = kube.watch(R.clusterDeployment, namespace, {
    onEvent(_type, cd) {
      const name = String(cd.metadata.name);
      const wanted = cd.spec?.powerState === 'Hibernating' ? 'Hibernating' : 'Running';
      if (spec.has(name) && spec.get(name) !== wanted) specChanges.push([name, wanted]);
      spec.set(name, wanted);
      const seen = cd.status?.powerState as string | undefined;
      if (seen && status.get(name) !== seen) {
        if (status.has(name)) statusChanges.push([name, seen]);
        status.set(name, seen);
      }
    },
    onGone() {
      gone = true;
    },
  });
  const of = (changes: Array<[string, string]>, state: string) => {
    if (gone)
      throw new Error(
        `the watch on ClusterDeployments in ${namespace} was compacted away: changes may have been missed`,
      );
    return changes.filter(([, s]) => s === state).map(([n]) => n);
  };
  return {
    asked: (state) => of(specChanges, state),
    reached: (state) => of(statusChanges, state),
    now: (name) => status.get(name),
    stop: () => handle.stop(),
  };
}
