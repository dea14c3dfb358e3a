// A keep-awake that lapses after the evening edge is an edge of the cluster's own: the cluster would go to sleep
// then. A skip-next-hibernation override made for tonight skips that edge, as the preview says, and its status
// shows it Consumed at the lapse, exactly as when it skips one of the schedule's own edges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScheduleTimers, type ScheduleTimers } from '../../src/schedules/schedule-timers.js';
import type { KubeObject } from '../../src/services/ports.js';
import { adoptCluster, cd, HUB, startBed, STATE_NS, type Bed } from './support.js';

const at = (iso: string) => Date.parse(iso);
const NS = 'late';
let bed: Bed;
let timers: ScheduleTimers | undefined;
type Override = KubeObject & { status?: { phase?: string; consumedEdge?: string } };
const overrideIs = (name: string, phase: string) =>
  bed.system.store.waitFor<Override, Override>(
    'ClusterOverride',
    { hub: HUB, namespace: STATE_NS, name },
    (o) => (o?.status?.phase === phase ? o : undefined),
    { timeoutMs: 30_000 },
  );

beforeAll(async () => {
  bed = await startBed(at('2026-11-22T10:00:00Z'));
  await adoptCluster(bed, NS, 'w');
  bed.clock.set(at('2026-11-24T12:00:00Z'));
  const res = await bed.app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: {
      name: 'office',
      timeZone: 'UTC',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
      targets: { namespaces: [NS] },
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  await bed.system.store.waitFor('HibernationSchedule', { hub: HUB, namespace: STATE_NS, name: 'office' }, (o) => o, {
    timeoutMs: 10_000,
  });
  for (const payload of [
    { type: 'keepAwake', until: '2026-11-24T19:00:00Z', by: 'ana', reason: 'demo until seven' },
    { type: 'skipNextHibernation', by: 'ana', reason: 'and then a long night' },
  ]) {
    const made = await bed.app.inject({ method: 'POST', url: `/v1/clusters/${HUB}/${NS}/w/overrides`, payload });
    expect(made.statusCode, made.body).toBe(201);
  }
  await bed.system.store.waitFor(
    'ClusterOverride',
    { hub: HUB, namespace: STATE_NS, name: `${HUB}.${NS}.w.skip-next-hibernation` },
    (o) => o,
    { timeoutMs: 10_000 },
  );
  timers = startScheduleTimers(bed.timerDeps());
}, 120_000);

afterAll(async () => {
  timers?.close();
  await bed?.close();
});

describe('a keep-awake lapsing into the night', () => {
  it('is skipped by the skip-next-hibernation override, which is then Consumed at the lapse', async () => {
    const preview = (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/w/schedule` })).json();
    expect(JSON.stringify(preview)).toContain('2026-11-24T19:00:00');

    bed.clock.set(at('2026-11-24T19:00:00.500Z'));
    await overrideIs(`${HUB}.${NS}.w.keep-awake`, 'Expired');
    const skip = await overrideIs(`${HUB}.${NS}.w.skip-next-hibernation`, 'Consumed');
    expect(skip.status?.consumedEdge).toBe('2026-11-24T19:00:00.000Z');
    expect(cd(bed, NS, 'w').spec?.powerState ?? 'Running').toBe('Running');
  });
});
