// A team's relocations: seen by its members only, and acting on its own team's clusters only (the preflight checks
// each cluster's team as each wave starts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configTeamDirectory } from '../../src/auth/team-directory.js';
import { createPreflight } from '../../src/services/relocations/preflight.js';
import { adoptCluster, EAST, missingLike, STATE_NS, startBed, T0, type Bed } from './team-objects-support.js';

let bed: Bed;

beforeAll(async () => {
  bed = await startBed(T0);
  await adoptCluster(bed, 'pay', 'a');
  await adoptCluster(bed, 'ml', 'b');
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

describe('relocations', () => {
  it("are seen by their team's members (admin to abort) and 404 to other teams", async () => {
    // Applied as GitOps would: a finished relocation of payments.
    await bed.system.store.create('Relocation', EAST, {
      apiVersion: 'beekeeper.io/v1beta1',
      kind: 'Relocation',
      metadata: { name: 'reloc-pay', namespace: STATE_NS, labels: { 'beekeeper.io/team': 'payments' } },
      spec: {
        from: EAST,
        to: 'west',
        clusters: [{ namespace: 'pay', name: 'a' }],
        requestedAt: new Date(T0).toISOString(),
      },
    });
    await bed.system.store.waitFor('Relocation', { hub: EAST, namespace: STATE_NS, name: 'reloc-pay' }, (o) => o, {
      timeoutMs: 10_000,
    });
    const seen = await bed.as('payViewer', 'GET', '/v1/relocations/reloc-pay');
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ id: 'reloc-pay', team: 'payments' });
    missingLike(await bed.as('mlAdmin', 'GET', '/v1/relocations/reloc-pay'), 'relocation reloc-pay not found');
    missingLike(await bed.as('mlAdmin', 'POST', '/v1/relocations/reloc-pay/abort'), 'relocation reloc-pay not found');
    expect((await bed.as('payViewer', 'POST', '/v1/relocations/reloc-pay/abort')).statusCode).toBe(403);
    const ids = async (who: 'payViewer' | 'mlAdmin') =>
      (await bed.as(who, 'GET', '/v1/relocations')).json<{ items: Array<{ id: string }> }>().items.map((r) => r.id);
    expect(await ids('payViewer')).toEqual(['reloc-pay']);
    expect(await ids('mlAdmin')).toEqual([]);
  });

  it("as each wave starts, preflight fails a cluster that is not the relocation's team's (check `team`)", async () => {
    const preflight = createPreflight({
      store: bed.system.store,
      stateHub: EAST,
      stateNamespace: STATE_NS,
      teams: configTeamDirectory(bed.config),
    });
    const spec = { from: EAST, to: 'west', requestedAt: new Date(T0).toISOString() };
    const clusters = [
      { namespace: 'pay', name: 'a' },
      { namespace: 'ml', name: 'b' },
    ];
    // The job tells it which relocation asks; the team is that Relocation's label (reloc-pay: payments).
    const report = await preflight(spec, clusters, { id: 'reloc-pay' });
    const teamCheck = (ns: string) =>
      report.clusters.find((c) => c.namespace === ns)!.checks.filter((c) => c.check === 'team');
    expect(teamCheck('pay')).toEqual([]);
    expect(teamCheck('ml')).toMatchObject([{ severity: 'error', message: expect.stringContaining('team payments') }]);
    expect(report.clusters.find((c) => c.namespace === 'ml')!.ok).toBe(false);
  });

  it("a team's relocation selects its own team's clusters only and refuses to name another team's", async () => {
    const dry = await bed.as('payAdmin', 'POST', '/v1/relocations', {
      from: EAST,
      to: 'west',
      selector: {},
      dryRun: true,
    });
    expect(dry.statusCode).toBe(200);
    const report = dry.json<{ report: { clusters: Array<{ namespace: string; name: string }> } }>().report;
    expect(report.clusters.map((c) => `${c.namespace}/${c.name}`)).toEqual(['pay/a']);

    const named = await bed.as('payAdmin', 'POST', '/v1/relocations', {
      from: EAST,
      to: 'west',
      clusters: [{ namespace: 'ml', name: 'b' }],
      dryRun: true,
    });
    expect(named.statusCode).toBe(403);
    expect(named.json()).toMatchObject({ code: 'Forbidden', detail: expect.stringContaining('clusters[0]') });

    const platform = await bed.as('platform', 'POST', '/v1/relocations', {
      from: EAST,
      to: 'west',
      selector: {},
      dryRun: true,
    });
    const all = platform.json<{ report: { clusters: Array<{ namespace: string }> } }>().report.clusters;
    expect(all.map((c) => c.namespace).sort()).toEqual(['ml', 'pay']);
    expect(
      (await bed.as('payViewer', 'POST', '/v1/relocations', { from: EAST, to: 'west', selector: {} })).statusCode,
    ).toBe(403);
  });
});
