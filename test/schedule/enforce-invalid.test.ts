// A schedule written straight to Kubernetes (kubectl apply) skips the API's validation. With `enforce: true` and a
// time zone that does not exist, it governs its clusters but cannot be evaluated: it is reported once when it is
// armed, and a change to one of its clusters neither throws out of the change listener nor moves the cluster.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleTimers, type ScheduleTimers } from '../../src/schedules/schedule-timers.js';
import { adoptCluster, cd, HUB, startBed, STATE_NS, waitPower, type Bed } from './support.js';

const NS = 'kubectl-made';
let bed: Bed;
let timers: ScheduleTimers | undefined;
const logLines: Array<{ msg?: string; level?: number; schedule?: string }> = [];

beforeAll(async () => {
  const logs = new PassThrough();
  logs.on('data', (chunk: Buffer) =>
    logLines.push(
      ...chunk
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { msg?: string }),
    ),
  );
  bed = await startBed(Date.parse('2026-11-24T12:00:00Z'), { logTo: logs });
  await adoptCluster(bed, NS, 'one');
  await bed.system.store.create('HibernationSchedule', HUB, {
    apiVersion: 'beekeeper.io/v1beta1',
    kind: 'HibernationSchedule',
    metadata: { name: 'mars', namespace: STATE_NS },
    spec: {
      timeZone: 'Mars/Olympus_Mons',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
      targets: { namespaces: [NS] },
      enforce: true,
    },
  });
  await bed.system.store.waitFor('HibernationSchedule', { hub: HUB, namespace: STATE_NS, name: 'mars' }, (o) => o, {
    timeoutMs: 10_000,
  });
  timers = startScheduleTimers(bed.timerDeps());
}, 120_000);

afterAll(async () => {
  timers?.close();
  await bed?.close();
});

describe('an invalid enforcing schedule applied with kubectl', () => {
  it('is reported once and a change to its cluster does not throw or move it', async () => {
    await bed.system.store.mergePatch(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'one' },
      { metadata: { labels: { touched: 'yes' } } },
    );
    await bed.system.store.waitFor(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'one' },
      (o) => (o?.metadata.labels?.touched === 'yes' ? true : undefined),
      { timeoutMs: 10_000 },
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(logLines.filter((l) => l.msg === 'change listener threw')).toEqual([]);
    expect(logLines.filter((l) => l.msg === 'schedule cannot be evaluated' && l.schedule === 'mars')).toHaveLength(1);
    await waitPower(bed, NS, 'one', 'Running');
    expect(cd(bed, NS, 'one').spec?.powerState ?? 'Running').toBe('Running');
  });
});
