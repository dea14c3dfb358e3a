// What the crash tests check after a sweep whose worker died mid-way: every planned cluster was patched once (a
// change of spec.powerState to Hibernating seen by the informer, not two) and carries one ScheduledHibernate Event.
import { expect } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { events, waitPower, type Bed } from './support.js';

/** Counts, per cluster, the changes of spec.powerState to Hibernating from now on; `stop` ends the count. */
export function countHibernations(bed: Bed, ns: string, names: readonly string[]) {
  const counts = new Map<string, number>();
  const spec = new Map(names.map((n) => [n, 'Running']));
  const stop = bed.system.store.onChange<ClusterDeployment>('ClusterDeployment', (_hub, _type, obj) => {
    const name = obj.metadata.name;
    if (obj.metadata.namespace !== ns || !spec.has(name)) return;
    const now = obj.spec?.powerState ?? 'Running';
    if (now === 'Hibernating' && spec.get(name) !== now) counts.set(name, (counts.get(name) ?? 0) + 1);
    spec.set(name, now);
  });
  return { counts, stop };
}

/** Every cluster Hibernating, patched once, with exactly one ScheduledHibernate Event and no ScheduleSkipped. */
export async function expectSweptOnce(
  bed: Bed,
  ns: string,
  names: readonly string[],
  counts: Map<string, number>,
): Promise<void> {
  await Promise.all(names.map((name) => waitPower(bed, ns, name, 'Hibernating')));
  expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(names.map((n) => [n, 1])));
  for (const name of names) {
    const reasons = (await events(bed, ns, name)).map((e) => e.reason);
    expect(
      reasons.filter((r) => r === 'ScheduledHibernate'),
      name,
    ).toHaveLength(1);
    expect(reasons, name).not.toContain('ScheduleSkipped');
  }
}
