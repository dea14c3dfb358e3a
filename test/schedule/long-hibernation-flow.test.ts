// The ~90-day safety flag on the simulator: a cluster hibernated for 85 days shows up in GET /v1/warnings and its
// schedule view, until a schedule governing it lifts the flag with a recorded reason.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adoptCluster, HUB, startBed, waitPower, type Bed } from './support.js';

const T0 = Date.parse('2026-06-01T09:00:00Z');
const DAY = 86_400_000;
const NS = 'archive';
let bed: Bed;

const get = async (url: string) => {
  const res = await bed.app.inject({ method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

beforeAll(async () => {
  bed = await startBed(T0);
  await adoptCluster(bed, NS, 'sleepy');
  await bed.system.store.mergePatch(
    'ClusterDeployment',
    { hub: HUB, namespace: NS, name: 'sleepy' },
    { spec: { powerState: 'Hibernating' } },
  );
  await waitPower(bed, NS, 'sleepy', 'Hibernating');
  bed.clock.set(T0 + 85 * DAY + 3_600_000); // the hibernation itself took a few (simulated) seconds after T0
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

describe('clusters hibernated for close to 90 days', () => {
  it('are flagged in the warnings and in their schedule view, saying when certificates may expire', async () => {
    const warnings = await get('/v1/warnings');
    expect(warnings.longHibernation).toEqual([
      expect.objectContaining({
        hub: HUB,
        namespace: NS,
        name: 'sleepy',
        hibernatedDays: 85,
        message: expect.stringMatching(/before 90 days/),
      }),
    ]);
    expect((await get(`/v1/clusters/${HUB}/${NS}/sleepy/schedule`)).flags).toEqual([
      expect.objectContaining({ hibernatedDays: 85 }),
    ]);
  });

  it('a schedule may lift the flag for its clusters, only with a reason, which it keeps', async () => {
    const body = {
      name: 'archive',
      timeZone: 'UTC',
      windows: [{ days: ['Mon'], start: '08:00', end: '09:00' }],
      targets: { namespaces: [NS] },
    };
    const refused = await bed.app.inject({
      method: 'POST',
      url: '/v1/schedules',
      payload: { ...body, safety: { ignoreLongHibernation: {} } },
    });
    expect(refused.statusCode).toBe(422);
    expect((await get('/v1/warnings')).longHibernation).toHaveLength(1);

    const reason = 'archived clusters are rebuilt, never resumed';
    const res = await bed.app.inject({
      method: 'POST',
      url: '/v1/schedules',
      payload: { ...body, safety: { ignoreLongHibernation: { reason } } },
    });
    expect(res.statusCode, res.body).toBe(201);
    await bed.system.store.waitFor(
      'HibernationSchedule',
      { hub: HUB, namespace: 'beekeeper', name: 'archive' },
      (o) => o,
      { timeoutMs: 10_000 },
    );
    expect((await get('/v1/warnings')).longHibernation).toEqual([]);
    const view = await get(`/v1/clusters/${HUB}/${NS}/sleepy/schedule`);
    expect(view).toMatchObject({ schedule: 'archive', flags: [] });
    expect((await get('/v1/schedules/archive')).spec.safety).toEqual({ ignoreLongHibernation: { reason } });
  });
});
