// Teams beyond the route table: Hive subjects on claims made through Beekeeper, namespaces that belong to a team by
// their label (and change hands when it changes), claims by attributes that pick only the caller's pools, and the
// queue dashboard for platform admins only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterClaim } from '../../src/hive/pools/types.js';
import { HUB, NS, TEAM_A_GROUP, TOKENS, cached, call, seedNamespace, startAuthBed, type AuthBed } from './support.js';

let bed: AuthBed;

beforeAll(async () => {
  bed = await startAuthBed();
  for (const ns of Object.values(NS)) {
    await seedNamespace(bed, ns, ns === NS.labelled ? 'team-a' : undefined);
  }
  await cached(bed, Object.values(NS));
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

/** The ClusterClaim as the hub stores it, read from the simulator's Kubernetes API. */
async function hubClaim(namespace: string, name: string): Promise<ClusterClaim> {
  const hub = bed.sim.hubs[0]!;
  const res = await fetch(`${hub.url}/apis/hive.openshift.io/v1/namespaces/${namespace}/clusterclaims/${name}`, {
    headers: { authorization: `Bearer ${hub.token}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as ClusterClaim;
}

const rbac = 'rbac.authorization.k8s.io';

describe('claims name their claimant for Hive (spec.subjects)', () => {
  it("a team operator's claim names the caller and the team's operator groups, not its viewer groups", async () => {
    const res = await call(bed, 'aOperator', 'POST', '/v1/claims', { pool: `${HUB}/${NS.a}/p1`, name: 'subjects-a' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const claim = await hubClaim(NS.a, 'subjects-a');
    expect(claim.spec.subjects).toEqual([
      { kind: 'User', apiGroup: rbac, name: TOKENS.aOperator.name },
      { kind: 'Group', apiGroup: rbac, name: TEAM_A_GROUP },
    ]);
  });

  it('keeps the subjects the request names, each once', async () => {
    const res = await call(bed, 'bMember', 'POST', '/v1/claims', {
      pool: `${HUB}/${NS.b}/p1`,
      name: 'subjects-b',
      subjects: [
        { kind: 'ServiceAccount', namespace: 'ci', name: 'runner' },
        { kind: 'User', name: TOKENS.bMember.name },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const claim = await hubClaim(NS.b, 'subjects-b');
    expect(claim.spec.subjects).toEqual([
      { kind: 'ServiceAccount', namespace: 'ci', name: 'runner' },
      { kind: 'User', apiGroup: rbac, name: TOKENS.bMember.name },
    ]);
  });

  it("a platform admin's claim names the admin only (it acts for no team)", async () => {
    const res = await call(bed, 'platform', 'POST', '/v1/claims', { pool: `${HUB}/${NS.a}/p1`, name: 'subjects-p' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await hubClaim(NS.a, 'subjects-p')).spec.subjects).toEqual([
      { kind: 'User', apiGroup: rbac, name: TOKENS.platform.name },
    ]);
  });
});

describe('claims from a pool named without its hub and namespace', () => {
  it("resolve among the caller's pools only, and never name another team's", async () => {
    const mine = await call(bed, 'bMember', 'POST', '/v1/claims', { pool: 'p1', name: 'by-name-b' });
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    expect((mine.body as { namespace: string }).namespace).toBe(NS.b);

    // team-a has a p1 in two namespaces: ambiguous, and the answer lists only those two.
    const ambiguous = await call(bed, 'aOperator', 'POST', '/v1/claims', { pool: 'p1' });
    expect(ambiguous.status).toBe(422);
    const detail = (ambiguous.body as { detail: string }).detail;
    expect(detail).toContain(`${HUB}/${NS.a}/p1`);
    expect(detail).not.toContain(NS.b);
    expect(detail).not.toContain(NS.none);
  });
});

describe('claims by attributes', () => {
  it("pick only from pools of the caller's teams", async () => {
    const res = await call(bed, 'bMember', 'POST', '/v1/claims', { selector: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((res.body as { namespace: string }).namespace).toBe(NS.b);
    expect((res.body as { pickedBecause?: string }).pickedBecause ?? '').not.toContain(NS.a);
  });

  it('find nothing for a caller who may only look', async () => {
    const res = await call(bed, 'aViewer', 'POST', '/v1/claims', { selector: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
  });
});

describe("a namespace's team label", () => {
  const path = `/v1/clusters/${HUB}/${NS.labelled}/c1`;

  it('gives its objects to that team', async () => {
    expect((await call(bed, 'aViewer', 'GET', path)).status).toBe(200);
    expect((await call(bed, 'bMember', 'GET', path)).status).toBe(404);
    // HEAD, which Fastify answers from the GET route, is checked the same way.
    expect((await call(bed, 'aViewer', 'HEAD', path)).status).toBe(200);
    expect((await call(bed, 'bMember', 'HEAD', path)).status).toBe(404);
  });

  it('hands them to another team when it changes', async () => {
    const { store } = bed.system;
    await store.mergePatch(
      'Namespace',
      { hub: HUB, name: NS.labelled },
      {
        metadata: { labels: { 'beekeeper.io/team': 'team-b' } },
      },
    );
    await store.waitFor(
      'Namespace',
      { hub: HUB, name: NS.labelled },
      (ns) => (ns?.metadata.labels?.['beekeeper.io/team'] === 'team-b' ? true : undefined),
      { timeoutMs: 10_000 },
    );
    expect((await call(bed, 'bMember', 'GET', path)).status).toBe(200);
    expect((await call(bed, 'aViewer', 'GET', path)).status).toBe(404);
    const listed = (await call(bed, 'bMember', 'GET', '/v1/clusters')).body as {
      items: Array<{ name: string; namespace: string; pool?: { namespace: string } }>;
    };
    // Its own c1s, and the clusters of its pool (in namespaces Hive made for them).
    const places = new Set(listed.items.map((c) => c.pool?.namespace ?? c.namespace));
    expect([...places].sort()).toEqual([NS.labelled, NS.b].sort());
    expect(
      listed.items
        .filter((c) => c.name === 'c1')
        .map((c) => c.namespace)
        .sort(),
    ).toEqual([NS.labelled, NS.b].sort());
  });
});

describe('the queue dashboard', () => {
  const board = (authorization?: string) =>
    fetch(`${bed.url}/admin/queues/api/queues`, { headers: authorization ? { authorization } : {} });
  const basic = (name: string, token: string) => `Basic ${Buffer.from(`${name}:${token}`).toString('base64')}`;

  it('is for platform admins, by bearer token or by name and token (Basic)', async () => {
    expect((await board(`Bearer ${TOKENS.platform.token}`)).status).toBe(200);
    expect((await board(basic(TOKENS.platform.name, TOKENS.platform.token))).status).toBe(200);
  });

  it("refuses a team's admin with 403", async () => {
    const res = await board(`Bearer ${TOKENS.aAdmin.token}`);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'Forbidden' });
    expect((await board(basic(TOKENS.aAdmin.name, TOKENS.aAdmin.token))).status).toBe(403);
  });
});

describe('jobs', () => {
  it('list only those whose target the caller may see, filtered before paging', async () => {
    const made: Record<string, string[]> = { [NS.a]: [], [NS.b]: [], [NS.none]: [] };
    for (const ns of [NS.a, NS.b, NS.none, NS.a]) {
      const res = await call(bed, 'platform', 'POST', `/v1/clusters/${HUB}/${ns}/c1/hibernate`);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      made[ns]!.push((res.body as { job: { id: string } }).job.id);
    }
    // Ended jobs keep their order (by finish time), so the pages below read one list.
    for (const id of Object.values(made).flat()) {
      const res = await call(bed, 'platform', 'GET', `/v1/jobs/${id}?wait=30`);
      expect(['completed', 'failed']).toContain((res.body as { job: { state: string } }).job.state);
    }
    type Page = { items: Array<{ id: string; target?: { namespace?: string } }> };
    const all = (await call(bed, 'aViewer', 'GET', '/v1/jobs?limit=100')).body as Page;
    expect(new Set(all.items.map((j) => j.target?.namespace))).toEqual(new Set([NS.a]));
    for (const id of made[NS.a]!) expect(all.items.map((j) => j.id)).toContain(id);

    const first = (await call(bed, 'aViewer', 'GET', '/v1/jobs?limit=1&offset=0')).body as Page;
    const second = (await call(bed, 'aViewer', 'GET', '/v1/jobs?limit=1&offset=1')).body as Page;
    expect([...first.items, ...second.items].map((j) => j.id)).toEqual(all.items.slice(0, 2).map((j) => j.id));

    const other = made[NS.b]![0]!;
    expect((await call(bed, 'aViewer', 'GET', `/v1/jobs/${other}`)).status).toBe(404);
    expect((await call(bed, 'bMember', 'GET', `/v1/jobs/${other}`)).status).toBe(200);
    expect((await call(bed, 'bMember', 'GET', `/v1/jobs/${made[NS.none]![0]!}`)).status).toBe(404);
  });
});
