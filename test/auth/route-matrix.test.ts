// Every route × caller × team, generated from the served OpenAPI document: a route the document lists without an
// expectation here fails, so a new route cannot skip authorization. Callers: viewer, operator and admin of team-a,
// an operator of team-b only, a platform admin, and no token; targets: objects of team-a, of team-b and of no team.
//
// What each answer must be (access.md): no token → 401; an object of a team where the caller has no role → the very
// answer a missing object gets (404, same code and words); a role below the one needed → 403 Forbidden naming the
// role; a create in a namespace the caller may not create in → 403 naming the namespace; lists → 200 with only what
// the caller may see. Requests that pass are really carried out, so the seed is made to absorb them: the clusters
// are protected (DELETE answers 409), creates name a missing image set or an existing claim (422, 409), and DELETEs
// of pools and claims act on an object made for that one request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRoute, NS_OF, PLACES, type Row, type Seeds } from './matrix.js';
import { HUB, NS, cached, call, seedClaim, seedNamespace, seedPool, startAuthBed, type AuthBed } from './support.js';
import { seedTeamObjects, TEAM_OBJECT_ROUTES } from './team-object-routes.js';

/** This lane's routes (clusters, pools, claims, jobs, hubs, resync). */
const ROUTES: Record<string, Row> = {
  'GET /v1/jobs': { need: { list: 'jobs' } },
  'GET /v1/jobs/{id}': { need: { object: 'job', role: 'viewer' } },
  'GET /v1/jobs/{id}/events': { need: { object: 'job', role: 'viewer' } },
  'GET /v1/hubs': { need: { signedIn: true } },
  // Lane quotas: who am I, and the caller's teams (another team's is as absent as a missing one).
  'GET /v1/me': { need: { signedIn: true } },
  'GET /v1/teams': { need: { list: 'unchecked' } },
  'GET /v1/teams/{name}': { need: { object: 'team', role: 'viewer' }, places: ['a', 'b'] },
  'GET /v1/resync': { need: { platformAdmin: true } },
  // Lane audit: admin in the caller's own team (it then sees that team's records; docs/audit.md), else 403.
  'GET /v1/audit': { need: { createOwn: 'admin' } },

  'GET /v1/clusters': { need: { list: 'clusters' } },
  'POST /v1/clusters': {
    need: { create: 'cluster', role: 'admin' },
    body: (ns) => ({
      hub: HUB,
      namespace: ns,
      name: 'never-made',
      baseDomain: 'example.com',
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: 'aws-creds' } },
      imageSet: 'no-such-imageset',
      pullSecretRef: 'pull-secret',
    }),
  },
  'GET /v1/clusters/{hub}/{namespace}/{name}': { need: { object: 'cluster', role: 'viewer' } },
  'DELETE /v1/clusters/{hub}/{namespace}/{name}': { need: { object: 'cluster', role: 'admin' } },
  'POST /v1/clusters/{hub}/{namespace}/{name}/hibernate': { need: { object: 'cluster', role: 'operator' } },
  'POST /v1/clusters/{hub}/{namespace}/{name}/resume': { need: { object: 'cluster', role: 'operator' } },
  'PUT /v1/clusters/{hub}/{namespace}/{name}/expiry': {
    need: { object: 'cluster', role: 'operator' },
    body: () => ({ expiresIn: '720h' }),
  },
  'GET /v1/clusters/{hub}/{namespace}/{name}/kubeconfig': { need: { object: 'cluster', role: 'operator' } },
  'GET /v1/clusters/{hub}/{namespace}/{name}/credentials': { need: { object: 'cluster', role: 'operator' } },

  'GET /v1/pools': { need: { list: 'pools' } },
  'POST /v1/pools': {
    need: { create: 'pool', role: 'admin' },
    body: (ns) => ({
      hub: HUB,
      namespace: ns,
      name: 'never-made',
      platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
      baseDomain: 'example.com',
      imageSetName: 'no-such-imageset',
      size: 0,
    }),
  },
  'GET /v1/pools/{hub}/{namespace}/{name}': { need: { object: 'pool', role: 'viewer' } },
  'PATCH /v1/pools/{hub}/{namespace}/{name}': { need: { object: 'pool', role: 'admin' }, body: () => ({ size: 0 }) },
  'DELETE /v1/pools/{hub}/{namespace}/{name}': {
    need: { object: 'pool', role: 'admin' },
    fresh: (bed, ns, name) => seedPool(bed, ns, name),
  },

  'GET /v1/claims': { need: { list: 'claims' } },
  'POST /v1/claims': {
    need: { claimFrom: 'pool', role: 'operator' },
    // k1 exists: a claim that passes the check is refused as a duplicate (409) and nothing is made.
    body: (ns) => ({ pool: `${HUB}/${ns}/p1`, name: 'k1' }),
  },
  'GET /v1/claims/{hub}/{namespace}/{name}': { need: { object: 'claim', role: 'viewer' } },
  'GET /v1/claims/{hub}/{namespace}/{name}/events': { need: { object: 'claim', role: 'viewer' } },
  'PATCH /v1/claims/{hub}/{namespace}/{name}': {
    need: { object: 'claim', role: 'operator' },
    body: () => ({ extendBy: '1h' }),
  },
  'DELETE /v1/claims/{hub}/{namespace}/{name}': {
    need: { object: 'claim', role: 'operator' },
    fresh: (bed, ns, name) => seedClaim(bed, ns, name),
  },
  'GET /v1/claims/{hub}/{namespace}/{name}/kubeconfig': { need: { object: 'claim', role: 'operator' } },
  'GET /v1/claims/{hub}/{namespace}/{name}/credentials': { need: { object: 'claim', role: 'operator' } },
  'POST /v1/claims/{hub}/{namespace}/{name}/heartbeat': {
    need: { object: 'claim', role: 'operator' },
    body: () => ({}),
  },
};

const same = (name: string) => ({ a: name, b: name, none: name });

let bed: AuthBed;
let operations: string[] = [];
const seeds: Seeds = {
  cluster: same('c1'),
  pool: same('p1'),
  claim: same('k1'),
  team: { a: 'team-a', b: 'team-b', none: '' },
};

beforeAll(async () => {
  bed = await startAuthBed();
  for (const place of PLACES) await seedNamespace(bed, NS_OF[place]);
  await seedNamespace(bed, NS.labelled, 'team-a');
  await cached(bed, Object.values(NS));
  // A job per place: the hibernation of its cluster.
  const jobs = { a: '', b: '', none: '' };
  for (const place of PLACES) {
    const res = await call(bed, 'platform', 'POST', `/v1/clusters/${HUB}/${NS_OF[place]}/c1/hibernate`);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    jobs[place] = (res.body as { job: { id: string } }).job.id;
  }
  seeds.job = jobs;
  const doc = (await call(bed, 'anonymous', 'GET', '/openapi.json')).body as {
    paths: Record<string, Record<string, unknown>>;
  };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
  );
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

describe('every route × role × team (from the OpenAPI document)', () => {
  it('has an expectation for every route the API describes, and none for a route it does not', () => {
    const known = new Set([...Object.keys(ROUTES), ...Object.keys(TEAM_OBJECT_ROUTES)]);
    const v1 = operations.filter((op) => op.split(' ')[1]!.startsWith('/v1/'));
    expect(
      v1.filter((op) => !known.has(op)),
      'routes without an expectation',
    ).toEqual([]);
    expect(
      [...known].filter((op) => !v1.includes(op)),
      'expectations for no route',
    ).toEqual([]);
  });

  it('every /v1 route declares its access (config.access); undeclared ones are for platform admins only', async () => {
    const undeclared = bed.system.app.routeAccess
      .filter((r) => !r.access)
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    // Routes of lane team-objects declare theirs at merge (`config: { access: { handled: 'in-handler' } }`).
    expect(undeclared.filter((op) => !(op in TEAM_OBJECT_ROUTES))).toEqual([]);
  });

  for (const [op, row] of Object.entries(ROUTES)) {
    it(
      op,
      async () => {
        expect(await checkRoute(bed, seeds, op, row)).toEqual([]);
      },
      60_000,
    );
  }
});

// Routes of lane team-objects (schedules, expiry policies, webhooks, relocations, cluster expiry, overrides and
// schedule), with the expectations access.md's role matrix gives. They pass once that lane's checks are merged:
// set TEAM_OBJECTS_MERGED to true then (the every-route test above also stops excusing their declarations).
const TEAM_OBJECTS_MERGED = true;

describe.runIf(TEAM_OBJECTS_MERGED)('team-objects routes × role × team', () => {
  beforeAll(async () => {
    Object.assign(seeds, await seedTeamObjects(bed));
  }, 60_000);

  it('every team-objects route declares its access', () => {
    const undeclared = bed.system.app.routeAccess
      .filter((r) => !r.access)
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`);
    expect(undeclared).toEqual([]);
  });

  for (const [op, row] of Object.entries(TEAM_OBJECT_ROUTES)) {
    it(
      op,
      async () => {
        expect(await checkRoute(bed, seeds, op, row)).toEqual([]);
      },
      60_000,
    );
  }
});
