// An ExpiryPolicy's maximum lifetime is enforced when expiry is asked for: PUT .../expiry and POST /v1/clusters
// refuse an expiry beyond it (422, the field, the policy and its maximum) and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { createBody, HUB, prerequisites, runJob, startBed, type Bed } from './support.js';

const H = 3_600_000;
let bed: Bed;
const ns = 'capped';
const url = `/v1/clusters/${HUB}/${ns}/short/expiry`;
const deleteAfter = async (name: string) =>
  (await bed.system.store.get<ClusterDeployment>('ClusterDeployment', { hub: HUB, namespace: ns, name }))?.metadata
    .annotations?.['hive.openshift.io/delete-after'];

beforeAll(async () => {
  bed = await startBed();
  await prerequisites(bed, ns);
  const policy = await bed.app.inject({
    method: 'POST',
    url: '/v1/expiry-policies',
    payload: { name: 'ten-hours', selector: { namespaces: [ns] }, maxLifetime: '10h' },
  });
  expect(policy.statusCode, policy.body).toBe(201);
  await bed.system.store.waitFor(
    'ExpiryPolicy',
    { hub: HUB, namespace: bed.system.config.stateNamespace, name: 'ten-hours' },
    (o) => o,
    { timeoutMs: 10_000 },
  );
  const job = await runJob(bed.app, 'POST', '/v1/clusters', createBody(ns, 'short', { expiresIn: '8h' }));
  expect(job.state).toBe('completed');
}, 60_000);
afterAll(async () => bed?.close());

describe('expiry capped by ExpiryPolicy up front', () => {
  it('POST /v1/clusters refuses an expiry beyond the policy maximum and creates nothing', async () => {
    const res = await bed.app.inject({
      method: 'POST',
      url: '/v1/clusters',
      payload: createBody(ns, 'long', { expiresIn: '12h' }),
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toEqual([
      {
        field: 'expiresIn',
        reason: expect.stringMatching(/latest allowed .*maxLifetime 10h from creation, policy ten-hours/),
      },
    ]);
    expect(await bed.system.store.get('ClusterDeployment', { hub: HUB, namespace: ns, name: 'long' })).toBeUndefined();
  });

  it('PUT .../expiry refuses expiresIn, expiresAt and clearing beyond the maximum, changing nothing', async () => {
    const before = await deleteAfter('short');
    expect(before).toBe('8h');
    const created = Date.parse(
      (await bed.system.store.get<ClusterDeployment>('ClusterDeployment', { hub: HUB, namespace: ns, name: 'short' }))!
        .metadata.creationTimestamp!,
    );
    for (const [payload, field] of [
      [{ expiresIn: '11h' }, 'expiresIn'],
      [{ expiresAt: new Date(created + 10 * H + 60_000).toISOString() }, 'expiresAt'],
      [{ expiresAt: null }, 'expiresAt'],
    ] as const) {
      const res = await bed.app.inject({ method: 'PUT', url, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().errors).toEqual([{ field, reason: expect.stringMatching(/ten-hours/) }]);
      expect(res.json().errors[0].reason).toMatch(/maxLifetime 10h/);
    }
    expect(await deleteAfter('short')).toBe(before);

    const ok = await bed.app.inject({ method: 'PUT', url, payload: { expiresIn: '9h' } });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
