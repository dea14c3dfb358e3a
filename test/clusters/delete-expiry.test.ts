// Deleting protected clusters, and expiry enforced by Hive itself through delete-after on the test clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import type { KubeObject } from '../../src/services/ports.js';
import { createBody, HUB, prerequisites, runJob, startBed, steps, type Bed } from './support.js';

let bed: Bed;
const ns = 'delete-flow';
const url = (name: string, action = '') => `/v1/clusters/${HUB}/${ns}/${name}${action}`;
const ref = (name: string) => ({ hub: HUB, namespace: ns, name });

beforeAll(async () => {
  // HiveConfig deleteProtection: Hive annotates clusters protected-delete=true when their install completes.
  bed = await startBed({ deleteProtection: true });
  await prerequisites(bed, ns);
  const jobs = await Promise.all([
    runJob(bed.app, 'POST', '/v1/clusters', createBody(ns, 'guarded')),
    // A key already present opts the cluster out of Hive's automatic protection (REFERENCE.md §8).
    runJob(
      bed.app,
      'POST',
      '/v1/clusters',
      createBody(ns, 'mortal', { annotations: { 'hive.openshift.io/protected-delete': 'false' } }),
    ),
  ]);
  expect(jobs.map((j) => j.state)).toEqual(['completed', 'completed']);
});
afterAll(async () => bed?.close());

describe('DELETE /v1/clusters/{hub}/{namespace}/{name}', () => {
  it('refuses a protected cluster with 409 and the reason, deleting nothing', async () => {
    const res = await bed.app.inject({ method: 'DELETE', url: url('guarded') });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(/hive\.openshift\.io\/protected-delete/);
    expect(res.json().detail).toMatch(/liftProtection=true/);
    const cd = await bed.system.store.get<ClusterDeployment>('ClusterDeployment', ref('guarded'));
    expect(cd?.metadata.deletionTimestamp).toBeUndefined();
    expect((await bed.app.inject({ method: 'GET', url: url('guarded') })).json().protected).toBe(true);
  });

  it('with liftProtection, sets the annotation to "false", records it, and follows deprovision to the end', async () => {
    const uid = bed.system.store.cached<ClusterDeployment>('ClusterDeployment', ref('guarded'))!.metadata.uid;
    const job = await runJob(bed.app, 'DELETE', `${url('guarded')}?liftProtection=true`);
    expect(job.state).toBe('completed');
    expect(steps(job)).toEqual(
      expect.arrayContaining(['ProtectionLifted', 'DeleteRequested', 'Deprovisioning', 'Deleted']),
    );
    expect(steps(job).indexOf('ProtectionLifted')).toBeLessThan(steps(job).indexOf('DeleteRequested'));
    expect(steps(job).at(-1)).toBe('Deleted');
    expect(job.result).toMatchObject({ deleted: true });
    expect(await bed.system.store.get('ClusterDeployment', ref('guarded'))).toBeUndefined();
    expect((await bed.app.inject({ method: 'GET', url: url('guarded') })).statusCode).toBe(404);

    const events = await bed.system.store.list<
      KubeObject & { reason?: string; type?: string; involvedObject?: { uid?: string } }
    >('Event', HUB, { namespace: ns });
    const lifted = events.find((e) => e.reason === 'DeleteProtectionLifted');
    expect(lifted).toMatchObject({ type: 'Warning', involvedObject: { uid } });
  });

  it('deleting a missing cluster is 404', async () => {
    expect((await bed.app.inject({ method: 'DELETE', url: url('guarded') })).statusCode).toBe(404);
  });
});

describe('PUT .../expiry', () => {
  it('writes delete-after as a duration from creationTimestamp, and Hive deletes the cluster when the clock passes it', async () => {
    const cd = bed.system.store.cached<ClusterDeployment>('ClusterDeployment', ref('mortal'))!;
    const created = Date.parse(cd.metadata.creationTimestamp!);
    const res = await bed.app.inject({ method: 'PUT', url: url('mortal', '/expiry'), payload: { expiresIn: '2h' } });
    expect(res.statusCode).toBe(200);
    const { cluster, warnings } = res.json();
    expect(warnings).toEqual([]);
    const deleteAfter = cluster.expiry.deleteAfter as string;
    const live = await bed.system.store.get<ClusterDeployment>('ClusterDeployment', ref('mortal'));
    expect(live!.metadata.annotations?.['hive.openshift.io/delete-after']).toBe(deleteAfter);
    // 2h from now, counted from creation and rounded up to the second: never earlier than asked.
    const expires = Date.parse(cluster.expiry.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(bed.clock.now() + 2 * 3_600_000 - 1000);
    expect(expires - created).toBeGreaterThan(2 * 3_600_000);

    // The wait's own timeout runs on the same clock, so it must outlast the jump.
    const gone = bed.system.store.waitFor('ClusterDeployment', ref('mortal'), (o) => (o ? undefined : true), {
      timeoutMs: 24 * 3_600_000,
    });
    bed.clock.advance(2 * 3_600_000 + 5_000);
    await expect(gone).resolves.toBe(true);
  });

  it('clears with null, takes absolute times, and names the field on bad input without writing', async () => {
    const job = await runJob(
      bed.app,
      'POST',
      '/v1/clusters',
      createBody(ns, 'later', { annotations: { 'hive.openshift.io/protected-delete': 'false' } }),
    );
    expect(job.state).toBe('completed');
    const at = new Date(bed.clock.now() + 36 * 3_600_000).toISOString();
    const set = await bed.app.inject({ method: 'PUT', url: url('later', '/expiry'), payload: { expiresAt: at } });
    expect(set.statusCode).toBe(200);
    expect(Date.parse(set.json().cluster.expiry.expiresAt)).toBeGreaterThanOrEqual(Date.parse(at));
    expect(Date.parse(set.json().cluster.expiry.expiresAt) - Date.parse(at)).toBeLessThan(1000);

    for (const [payload, field] of [
      [{ expiresIn: '2d' }, 'expiresIn'],
      [{ expiresIn: '99999999999999999h' }, 'expiresIn'], // past Go's int64: Hive could not read the delete-after
      [{ expiresAt: new Date(bed.clock.now() - 60_000).toISOString() }, 'expiresAt'],
      [{}, 'expiresAt'],
    ] as const) {
      const bad = await bed.app.inject({ method: 'PUT', url: url('later', '/expiry'), payload });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const overflow = await bed.app.inject({
      method: 'PUT',
      url: url('later', '/expiry'),
      payload: { expiresIn: '99999999999999999h' },
    });
    expect(overflow.json().errors[0].reason).toContain('time: invalid duration "99999999999999999h"');
    const unchanged = await bed.app.inject({ method: 'GET', url: url('later') });
    expect(Date.parse(unchanged.json().expiry.expiresAt)).toBe(Date.parse(set.json().cluster.expiry.expiresAt));
    const unknown = await bed.app.inject({
      method: 'PUT',
      url: url('later', '/expiry'),
      payload: { expiresIn: '1h', extra: true },
    });
    expect(unknown.statusCode).toBe(422);

    const cleared = await bed.app.inject({ method: 'PUT', url: url('later', '/expiry'), payload: { expiresAt: null } });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().cluster.expiry).toBeUndefined();
    const live = await bed.system.store.get<ClusterDeployment>('ClusterDeployment', ref('later'));
    expect(live!.metadata.annotations?.['hive.openshift.io/delete-after']).toBeUndefined();
  });
});
