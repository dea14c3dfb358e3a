// When expiry warnings go out for clusters: at each lead time reached after the expiry was set, never at once for
// a lead longer than the cluster had left (issue 8: warnings went out at creation instead of at their lead time).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExpiryTimers } from '../../src/schedules/expiry-timers.js';
import { jobIds } from '../../src/services/job-ids.js';
import { adoptCluster, events, HUB, startBed, waitJob, type Bed } from './support.js';

const T0 = Date.parse('2026-11-23T09:00:00Z');
const H = 3_600_000;
const NS = 'team-w';
const iso = (ms: number) => new Date(ms).toISOString();
let bed: Bed;
let timers: ReturnType<typeof startExpiryTimers> | undefined;
/** Every warning the timers ask for, as `<cluster>:<lead>`, seen as they ask. */
const asked: string[] = [];

beforeAll(async () => {
  bed = await startBed(T0);
  await adoptCluster(bed, NS, 'short');
  await adoptCluster(bed, NS, 'long');
  const deps = bed.timerDeps();
  timers = startExpiryTimers({
    ...deps,
    queue: {
      ...deps.queue,
      enqueue: (job, opts) => (
        job.type === 'expiry.warn' && asked.push(`${String(job.payload.name)}:${String(job.payload.lead)}`),
        deps.queue.enqueue(job, opts)
      ),
    },
  });
}, 120_000);

afterAll(async () => {
  timers?.close();
  await bed?.close();
});

const setExpiry = async (name: string, expiresIn: string) => {
  const res = await bed.app.inject({
    method: 'PUT',
    url: `/v1/clusters/${HUB}/${NS}/${name}/expiry`,
    payload: { expiresIn },
  });
  expect(res.statusCode, res.body).toBe(200);
  const expiresAt = Date.parse(res.json().cluster.expiry.expiresAt);
  // The timers plan from the informer cache: wait until it has the expiry.
  await bed.system.store.waitFor(
    'ClusterDeployment',
    { hub: HUB, namespace: NS, name },
    (o) => (o?.metadata.annotations?.['beekeeper.io/expiry-history'] ? o : undefined),
    { timeoutMs: 10_000 },
  );
  return expiresAt;
};

describe('expiry warnings for clusters (default leads 24h and 1h)', () => {
  it('an expiry set 2h ahead sends nothing when it is set, and the 1h warning exactly 1h before', async () => {
    const expiresAt = await setExpiry('short', '2h');
    expect(asked).toEqual([]);
    expect(timers!.pending()[`cd/${HUB}/${NS}/short`]).toBe(iso(expiresAt - H));
    const listed = (await bed.app.inject({ method: 'GET', url: '/v1/warnings' })).json().expiry;
    expect(listed).toContainEqual(
      expect.objectContaining({
        name: 'short',
        leads: ['24h', '1h'],
        moot: ['24h'],
        nextWarningAt: iso(expiresAt - H),
      }),
    );

    bed.clock.set(expiresAt - H - 1);
    expect(asked).toEqual([]);
    bed.clock.set(expiresAt - H);
    expect(asked).toEqual(['short:1h']);
    const job = await waitJob(
      bed,
      `${HUB}.${jobIds.warn({ kind: 'ClusterDeployment', hub: HUB, namespace: NS, name: 'short', expiresAtMs: expiresAt }, '1h')}`,
    );
    expect(job.state).toBe('completed');
    expect((await events(bed, NS, 'short')).filter((e) => e.reason === 'ExpiryWarning')).toHaveLength(1);
  });

  it('an expiry set 30h ahead gets the 24h warning when 24h are left, not before', async () => {
    const expiresAt = await setExpiry('long', '30h');
    expect(asked.filter((a) => a.startsWith('long:'))).toEqual([]);
    expect(timers!.pending()[`cd/${HUB}/${NS}/long`]).toBe(iso(expiresAt - 24 * H));
    bed.clock.set(expiresAt - 24 * H);
    expect(asked.filter((a) => a.startsWith('long:'))).toEqual(['long:24h']);
  });
});
