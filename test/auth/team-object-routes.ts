// Expectations for the routes of lane team-objects (schedules, expiry policies, webhooks, relocations, and the
// cluster's expiry, overrides and schedule), from access.md's role matrix. Beekeeper's own objects belong to the
// team in their `beekeeper.io/team` label; the seed makes one of each kind per place (team-a, team-b, no team).
// route-matrix.test.ts runs them in the block it enables with TEAM_OBJECTS_MERGED.
import type { Row, Seeds } from './matrix.js';
import { HUB, TEAM_OF, call, type AuthBed, type Place } from './support.js';

const PLACES: readonly Place[] = ['a', 'b', 'none'];

const scheduleBody = (name: string) => ({
  name,
  timeZone: 'Europe/Berlin',
  windows: [{ days: ['Mon'], start: '07:00', end: '19:00' }],
});
const policyBody = (name: string, ns: string) => ({
  name,
  selector: { namespaces: [ns] },
  maxLifetime: '72h',
  warnings: ['1h'],
});
const webhookBody = { url: 'https://hooks.example.com/beekeeper', format: 'generic' };

const KIND = {
  schedule: 'HibernationSchedule',
  policy: 'ExpiryPolicy',
  webhook: 'WebhookEndpoint',
  relocation: 'Relocation',
} as const;

/** Labels the object with the place's team (none: no label, a platform-wide object). */
async function label(bed: AuthBed, kind: keyof typeof KIND, name: string, place: Place): Promise<void> {
  const team = TEAM_OF[place];
  if (!team) return;
  const ref = { hub: HUB, namespace: bed.system.config.stateNamespace, name };
  await bed.system.store.waitFor(KIND[kind], ref, (o) => (o ? true : undefined), { timeoutMs: 10_000 });
  await bed.system.store.mergePatch(KIND[kind], ref, { metadata: { labels: { 'beekeeper.io/team': team } } });
  await bed.system.store.waitFor(
    KIND[kind],
    ref,
    (o) => (o?.metadata.labels?.['beekeeper.io/team'] === team ? true : undefined),
    { timeoutMs: 10_000 },
  );
}

async function made(res: Promise<{ status: number; body: unknown }>): Promise<void> {
  const { status, body } = await res;
  if (status >= 300) throw new Error(`seeding failed: ${status} ${JSON.stringify(body)}`);
}

async function makeSchedule(bed: AuthBed, name: string, place: Place) {
  await made(call(bed, 'platform', 'POST', '/v1/schedules', scheduleBody(name)));
  await label(bed, 'schedule', name, place);
}
async function makePolicy(bed: AuthBed, name: string, ns: string, place: Place) {
  await made(call(bed, 'platform', 'POST', '/v1/expiry-policies', policyBody(name, ns)));
  await label(bed, 'policy', name, place);
}
async function makeWebhook(bed: AuthBed, name: string, place: Place) {
  await made(call(bed, 'platform', 'PUT', `/v1/webhooks/${name}`, webhookBody));
  await label(bed, 'webhook', name, place);
}
async function makeRelocation(bed: AuthBed, name: string, ns: string, place: Place) {
  await bed.system.store.create('Relocation', HUB, {
    apiVersion: 'beekeeper.io/v1beta1',
    kind: 'Relocation',
    metadata: { name, namespace: bed.system.config.stateNamespace },
    spec: { from: HUB, to: 'west', requestedAt: new Date().toISOString(), clusters: [{ namespace: ns, name: 'c1' }] },
  });
  await label(bed, 'relocation', name, place);
}

/** One schedule, policy, webhook and relocation per place. */
export async function seedTeamObjects(bed: AuthBed): Promise<Seeds> {
  const seeds: Seeds = { schedule: {} as never, policy: {} as never, webhook: {} as never, relocation: {} as never };
  for (const place of PLACES) {
    const ns = place === 'a' ? 'team-a-ns' : place === 'b' ? 'team-b-ns' : 'no-team-ns';
    await makeSchedule(bed, (seeds.schedule![place] = `schedule-${place}`), place);
    await makePolicy(bed, (seeds.policy![place] = `policy-${place}`), ns, place);
    await makeWebhook(bed, (seeds.webhook![place] = `webhook-${place}`), place);
    await makeRelocation(bed, (seeds.relocation![place] = `relocation-${place}`), ns, place);
  }
  return seeds;
}

export const TEAM_OBJECT_ROUTES: Record<string, Row> = {
  // A cluster's expiry, overrides and schedule: its team's (overrides belong to their cluster's team).
  'GET /v1/clusters/{hub}/{namespace}/{name}/expiry': { need: { object: 'cluster', role: 'viewer' } },
  'POST /v1/clusters/{hub}/{namespace}/{name}/expiry/extend': {
    need: { object: 'cluster', role: 'operator' },
    body: () => ({ extendBy: '1h', by: 'someone', reason: 'the route table' }),
  },
  'GET /v1/clusters/{hub}/{namespace}/{name}/schedule': { need: { object: 'cluster', role: 'viewer' } },
  'GET /v1/clusters/{hub}/{namespace}/{name}/overrides': { need: { object: 'cluster', role: 'viewer' } },
  'POST /v1/clusters/{hub}/{namespace}/{name}/overrides': {
    need: { object: 'cluster', role: 'operator' },
    body: () => ({ type: 'keepAwake', for: '1h', by: 'someone', reason: 'the route table' }),
  },
  'DELETE /v1/clusters/{hub}/{namespace}/{name}/overrides': {
    need: { object: 'cluster', role: 'operator' },
    // An override to delete, made by a platform admin before each cell.
    prepare: async (bed, ns, name) => {
      if (!name) return;
      await call(bed, 'platform', 'POST', `/v1/clusters/${HUB}/${ns}/${name}/overrides`, {
        type: 'keepAwake',
        for: '1h',
        by: 'someone',
        reason: 'the route table',
      });
    },
  },

  'GET /v1/warnings': { need: { list: 'unchecked' } },
  'POST /v1/expiry/sweep': { need: { platformAdmin: true } },

  'GET /v1/schedules': { need: { list: 'schedules' } },
  'POST /v1/schedules': {
    need: { createOwn: 'admin' },
    body: () => ({ ...scheduleBody('never-made'), dryRun: true }),
  },
  'GET /v1/schedules/{name}': { need: { object: 'schedule', role: 'viewer' } },
  'PUT /v1/schedules/{name}': {
    need: { object: 'schedule', role: 'admin' },
    body: () => ({ timeZone: 'Europe/Berlin', windows: [{ days: ['Tue'], start: '07:00', end: '19:00' }] }),
  },
  'DELETE /v1/schedules/{name}': {
    need: { object: 'schedule', role: 'admin' },
    fresh: (bed, _ns, name, place) => makeSchedule(bed, name, place),
  },
  'GET /v1/schedules/{name}/preview': { need: { object: 'schedule', role: 'viewer' } },
  'POST /v1/schedules/{name}/run': { need: { object: 'schedule', role: 'admin' } },

  'GET /v1/expiry-policies': { need: { list: 'policies' } },
  'POST /v1/expiry-policies': {
    need: { createOwn: 'admin' },
    body: (ns) => policyBody('never-made', ns),
  },
  'GET /v1/expiry-policies/{name}': { need: { object: 'policy', role: 'viewer' } },
  'PUT /v1/expiry-policies/{name}': {
    need: { object: 'policy', role: 'admin' },
    body: () => ({ maxLifetime: '72h', dryRun: true }),
  },
  'DELETE /v1/expiry-policies/{name}': {
    need: { object: 'policy', role: 'admin' },
    fresh: (bed, ns, name, place) => makePolicy(bed, name, ns, place),
  },

  'GET /v1/webhooks': { need: { list: 'webhooks' } },
  'GET /v1/webhooks/{name}': { need: { object: 'webhook', role: 'viewer' } },
  // PUT creates or replaces: another team's name is taken (409, without saying whose), it cannot be free.
  'PUT /v1/webhooks/{name}': {
    need: { object: 'webhook', role: 'admin' },
    body: () => webhookBody,
    hiddenAnswer: { status: 409, code: 'Conflict' },
  },
  'DELETE /v1/webhooks/{name}': {
    need: { object: 'webhook', role: 'admin' },
    fresh: (bed, _ns, name, place) => makeWebhook(bed, name, place),
  },

  'POST /v1/relocations': {
    need: { createOwn: 'admin' },
    body: (ns) => ({ from: HUB, to: HUB, selector: { namespaces: [ns] }, dryRun: true }),
  },
  'GET /v1/relocations': { need: { list: 'relocations' } },
  'GET /v1/relocations/{id}': { need: { object: 'relocation', role: 'viewer' } },
  'GET /v1/relocations/{id}/events': { need: { object: 'relocation', role: 'viewer' } },
  'POST /v1/relocations/{id}/abort': {
    need: { object: 'relocation', role: 'admin' },
    body: () => ({}),
    query: 'wait=0',
  },
};
