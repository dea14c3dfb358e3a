// Expiry sweeps: a dry run says which clusters the policies would give a default expiry or cap, changing nothing;
// a dry-run policy can be previewed that way but is never applied (no cap on extensions, no warning leads);
// a real sweep applies and audits. No scheduler role runs here, so nothing else enforces the policies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adoptCluster, cd, events, HUB, startBed, type Bed } from './support.js';

const T0 = Date.parse('2026-11-23T09:00:00Z');
const H = 3_600_000;
const NS = 'team-c';
const iso = (ms: number) => new Date(ms).toISOString();
let bed: Bed;

/** When the cluster was created (the simulator stamps whole seconds), which delete-after counts from. */
const created = (name: string) => Date.parse(cd(bed, NS, name).metadata.creationTimestamp ?? '');
const deleteAfter = (name: string) => cd(bed, NS, name).metadata.annotations?.['hive.openshift.io/delete-after'];
const sweep = (query: string) => bed.app.inject({ method: 'POST', url: `/v1/expiry/sweep${query}` });

beforeAll(async () => {
  bed = await startBed(T0);
  await adoptCluster(bed, NS, 'no-expiry');
  await adoptCluster(bed, NS, 'too-long', { annotations: { 'hive.openshift.io/delete-after': '500h' } });
  await adoptCluster(bed, 'elsewhere', 'elsewhere');
  const post = async (payload: object) => {
    const res = await bed.app.inject({ method: 'POST', url: '/v1/expiry-policies', payload });
    expect(res.statusCode, res.body).toBe(201);
  };
  await post({
    name: 'team-c',
    selector: { namespaces: [NS] },
    maxLifetime: '100h',
    defaultLifetime: '48h',
    warnings: ['1h'],
  });
  await post({ name: 'strict', selector: { namespaces: [NS] }, maxLifetime: '10h', warnings: ['6h'], dryRun: true });
  for (const name of ['team-c', 'strict'])
    await bed.system.store.waitFor('ExpiryPolicy', { hub: HUB, namespace: 'beekeeper', name }, (o) => o, {
      timeoutMs: 10_000,
    });
  bed.clock.set(T0 + 2 * H);
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

describe('expiry sweeps', () => {
  it('a dry run reports the default and the cap the policies in force would impose, and changes nothing', async () => {
    const res = await sweep('?dryRun=true');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      dryRun: true,
      policies: ['team-c'],
      changes: [
        {
          hub: HUB,
          namespace: NS,
          name: 'no-expiry',
          action: 'default',
          policy: 'team-c',
          to: iso(created('no-expiry') + 48 * H),
        },
        {
          hub: HUB,
          namespace: NS,
          name: 'too-long',
          action: 'cap',
          policy: 'team-c',
          from: iso(created('too-long') + 500 * H),
          to: iso(created('too-long') + 100 * H),
        },
      ],
      failed: [],
    });
    expect([deleteAfter('no-expiry'), deleteAfter('too-long')]).toEqual([undefined, '500h']);
  });

  it('previews a dry-run policy only when asked, and only in a dry run', async () => {
    const preview = (await sweep('?dryRun=true&includeDryRunPolicies=true')).json();
    expect(preview.policies).toEqual(['strict', 'team-c']);
    // strict's 10h maximum wins; 6h notice from now (T0+2h) is T0+8h, earlier than the cap, so the cap stands.
    expect(preview.changes).toEqual([
      expect.objectContaining({ name: 'no-expiry', action: 'default', to: iso(created('no-expiry') + 10 * H) }),
      expect.objectContaining({
        name: 'too-long',
        action: 'cap',
        policy: 'strict',
        to: iso(created('too-long') + 10 * H),
      }),
    ]);
    const refused = await sweep('?includeDryRunPolicies=true');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual([expect.objectContaining({ field: 'includeDryRunPolicies' })]);
    expect([deleteAfter('no-expiry'), deleteAfter('too-long')]).toEqual([undefined, '500h']);
  });

  it('a real sweep applies the policies in force, audited as the policy; a second one has nothing to do', async () => {
    const res = await sweep('');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().changes.map((c: { name: string; action: string }) => `${c.name}:${c.action}`)).toEqual([
      'no-expiry:default',
      'too-long:cap',
    ]);
    await bed.system.store.waitFor(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'too-long' },
      (o) => (o?.metadata.annotations?.['hive.openshift.io/delete-after'] === '100h' ? o : undefined),
      { timeoutMs: 10_000 },
    );
    await bed.system.store.waitFor(
      'ClusterDeployment',
      { hub: HUB, namespace: NS, name: 'no-expiry' },
      (o) => (o?.metadata.annotations?.['hive.openshift.io/delete-after'] ? o : undefined),
      { timeoutMs: 10_000 },
    );
    expect(deleteAfter('no-expiry')).toBe('48h');
    expect((await events(bed, NS, 'too-long')).map((e) => e.reason)).toContain('ExpiryCapped');
    const history = (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/no-expiry/expiry` })).json()
      .history;
    expect(history).toEqual([expect.objectContaining({ action: 'default', by: 'policy/team-c' })]);
    expect((await sweep('')).json().changes).toEqual([]);
  });

  it('a dry-run policy neither caps an extension nor sets the warning lead times', async () => {
    const view = (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${NS}/no-expiry/expiry` })).json();
    expect(view.limits).toMatchObject({ maxLifetime: '100h', warnings: ['1h'], policies: ['team-c'] });
    // 48h + 20h is past strict's 10h but within team-c's 100h.
    const res = await bed.app.inject({
      method: 'POST',
      url: `/v1/clusters/${HUB}/${NS}/no-expiry/expiry/extend`,
      payload: { extendBy: '20h', by: 'cy', reason: 'soak test' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().expiresAt).toBe(iso(created('no-expiry') + 68 * H));
    const warning = (await bed.app.inject({ method: 'GET', url: '/v1/warnings' }))
      .json()
      .expiry.find((w: { name: string }) => w.name === 'no-expiry');
    expect(warning.leads).toEqual(['1h']);
  });
});
