// Beekeeper's own objects belong to teams (label beekeeper.io/team): members see them by role, other teams get
// the answer a missing object gets, and a team's schedule, policy, webhook or relocation acts on its own team's
// clusters only. Platform-wide objects (no team) stay what they were: platform admins' and acting on everything.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configTeamDirectory } from '../../src/auth/team-directory.js';
import { readWarningRecord } from '../../src/hive/expiry/index.js';
import { createLogger } from '../../src/logger.js';
import { startExpiryTimers } from '../../src/schedules/expiry-timers.js';
import type { JobView } from '../../src/services/ports.js';
import { adoptCluster, EAST, missingLike, STATE_NS, startBed, T0, type Bed } from './team-objects-support.js';

const H = 3_600_000;

const SCHEDULE = {
  timeZone: 'UTC',
  windows: [{ days: ['Mon'], start: '07:00', end: '08:00' }],
  safety: { allowHibernationInFirstDay: { reason: 'test clusters are adopted minutes before' } },
};

let bed: Bed;
let receiver: Server;
let port = 0;
const posts: Array<{ path: string; body: { cluster?: { namespace: string; name: string } } }> = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', body: JSON.parse(body || '{}') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  port = (receiver.address() as AddressInfo).port;
  bed = await startBed(T0);
  await adoptCluster(bed, 'pay', 'a');
  await adoptCluster(bed, 'ml', 'b');
}, 120_000);

afterAll(async () => {
  await bed?.close();
  await new Promise<void>((r) => receiver.close(() => r()));
});

describe('schedules', () => {
  it("are labelled with the creator's team, seen by its members, and 404 to other teams as if missing", async () => {
    const created = await bed.as('payAdmin', 'POST', '/v1/schedules', { name: 'pay-nights', ...SCHEDULE });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'pay-nights', team: 'payments' });
    const cr = await bed.system.store.get('HibernationSchedule', {
      hub: EAST,
      namespace: STATE_NS,
      name: 'pay-nights',
    });
    expect(cr?.metadata.labels?.['beekeeper.io/team']).toBe('payments');

    expect((await bed.as('payViewer', 'GET', '/v1/schedules/pay-nights')).statusCode).toBe(200);
    const hidden = await bed.as('mlAdmin', 'GET', '/v1/schedules/pay-nights');
    const missing = await bed.as('mlAdmin', 'GET', '/v1/schedules/no-such-schedule');
    missingLike(hidden, 'schedule pay-nights not found');
    missingLike(missing, 'schedule no-such-schedule not found');
    expect(Object.keys(hidden.json<object>()).sort()).toEqual(Object.keys(missing.json<object>()).sort());
    missingLike(await bed.as('mlAdmin', 'DELETE', '/v1/schedules/pay-nights'), 'schedule pay-nights not found');

    const names = async (who: 'mlAdmin' | 'payViewer' | 'platform') =>
      (await bed.as(who, 'GET', '/v1/schedules')).json<{ items: Array<{ name: string }> }>().items.map((s) => s.name);
    expect(await names('mlAdmin')).not.toContain('pay-nights');
    expect(await names('payViewer')).toContain('pay-nights');
    expect(await names('platform')).toContain('pay-nights');
  });

  it('needs admin in the team to change or run one (403 Forbidden naming the role)', async () => {
    const put = await bed.as('payViewer', 'PUT', '/v1/schedules/pay-nights', SCHEDULE);
    expect(put.statusCode).toBe(403);
    expect(put.json()).toMatchObject({ code: 'Forbidden', detail: expect.stringContaining('admin in team payments') });
    expect((await bed.as('payOperator', 'DELETE', '/v1/schedules/pay-nights')).statusCode).toBe(403);
    expect((await bed.as('payOperator', 'POST', '/v1/schedules/pay-nights/run?dryRun=true')).statusCode).toBe(403);
    expect((await bed.as('payViewer', 'POST', '/v1/schedules', { name: 'v', ...SCHEDULE })).statusCode).toBe(403);
  });

  it('keeps its team on a replace unless a platform admin moves it', async () => {
    const moved = await bed.as('payAdmin', 'PUT', '/v1/schedules/pay-nights', { team: 'ml', ...SCHEDULE });
    expect(moved.statusCode).toBe(403);
    expect(moved.json()).toMatchObject({ code: 'Forbidden', detail: expect.stringContaining('platform admin') });
    const kept = await bed.as('payAdmin', 'PUT', '/v1/schedules/pay-nights', { ...SCHEDULE, enforce: false });
    expect(kept.statusCode).toBe(200);
    expect(kept.json()).toMatchObject({ team: 'payments' });
  });

  it('asks a caller who is admin in several teams to name one, and refuses a team not theirs', async () => {
    const ambiguous = await bed.as('both', 'POST', '/v1/schedules', { name: 'both-1', ...SCHEDULE });
    expect(ambiguous.statusCode).toBe(422);
    expect(ambiguous.json()).toMatchObject({ errors: [{ field: 'team' }] });
    const named = await bed.as('both', 'POST', '/v1/schedules', { name: 'both-1', team: 'ml', ...SCHEDULE });
    expect(named.statusCode).toBe(201);
    expect(named.json()).toMatchObject({ team: 'ml' });
    const notTheirs = await bed.as('payAdmin', 'POST', '/v1/schedules', { name: 'x-1', team: 'ml', ...SCHEDULE });
    expect(notTheirs.statusCode).toBe(422);
    expect(notTheirs.json()).toMatchObject({ errors: [{ field: 'team' }] });
    expect((await bed.as('both', 'DELETE', '/v1/schedules/both-1')).statusCode).toBe(204);
  });

  it("a platform admin's schedule without a team is platform-wide: hidden from team members", async () => {
    const created = await bed.as('platform', 'POST', '/v1/schedules', {
      name: 'fleet',
      ...SCHEDULE,
      targets: { namespaces: ['nowhere'] },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).not.toHaveProperty('team');
    missingLike(await bed.as('payAdmin', 'GET', '/v1/schedules/fleet'), 'schedule fleet not found');
    expect((await bed.as('platform', 'DELETE', '/v1/schedules/fleet')).statusCode).toBe(204);
  });

  it("a team's schedule hibernates its own team's clusters only, and does not govern another team's", async () => {
    const run = await bed.as('payAdmin', 'POST', '/v1/schedules/pay-nights/run?wait=60');
    expect(run.statusCode).toBe(200);
    const job = run.json<{ job: JobView }>().job;
    expect(job.state).toBe('completed');
    const result = job.result as { acted: Array<{ namespace: string; name: string }>; skipped: unknown[] };
    expect(result.acted.map((c) => `${c.namespace}/${c.name}`)).toEqual(['pay/a']);
    expect(JSON.stringify(result.skipped)).not.toContain('"ml"');

    const other = await bed.as('mlAdmin', 'GET', `/v1/clusters/${EAST}/ml/b/schedule`);
    expect(other.statusCode).toBe(200);
    expect(other.json()).toMatchObject({ why: 'no schedule targets this cluster' });
    const preview = await bed.as('payAdmin', 'GET', '/v1/schedules/pay-nights/preview?days=1');
    expect(preview.body).not.toContain('"ml"');
  });
});

describe('overrides and cluster expiry', () => {
  it("go by the cluster's team: viewer reads, operator changes, another team gets 404", async () => {
    const url = `/v1/clusters/${EAST}/pay/a/overrides`;
    const body = { type: 'keepAwake', for: '2h', by: 'pat', reason: 'demo' };
    expect((await bed.as('payViewer', 'GET', url)).statusCode).toBe(200);
    expect((await bed.as('payViewer', 'POST', url, body)).statusCode).toBe(403);
    missingLike(await bed.as('mlAdmin', 'POST', url, body), `cluster ${EAST}/pay/a not found`);
    expect((await bed.as('payOperator', 'POST', url, body)).statusCode).toBe(201);
    expect((await bed.as('payOperator', 'DELETE', url)).statusCode).toBe(200);

    missingLike(await bed.as('mlAdmin', 'GET', `/v1/clusters/${EAST}/pay/a/expiry`), `cluster ${EAST}/pay/a not found`);
    expect((await bed.as('payViewer', 'GET', `/v1/clusters/${EAST}/pay/a/expiry`)).statusCode).toBe(200);
    const extend = { extendBy: '1h', reason: 'demo' };
    expect((await bed.as('payViewer', 'POST', `/v1/clusters/${EAST}/pay/a/expiry/extend`, extend)).statusCode).toBe(
      403,
    );
  });
});

describe('expiry policies', () => {
  it("a team's policy caps its own team's clusters only; the all-cluster sweep is for platform admins", async () => {
    const created = await bed.as('payAdmin', 'POST', '/v1/expiry-policies', { name: 'pay-cap', maxLifetime: '6h' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'pay-cap', team: 'payments' });
    await bed.system.store.waitFor('ExpiryPolicy', { hub: EAST, namespace: STATE_NS, name: 'pay-cap' }, (o) => o, {
      timeoutMs: 10_000,
    });
    missingLike(await bed.as('mlAdmin', 'GET', '/v1/expiry-policies/pay-cap'), 'expiry policy pay-cap not found');
    expect((await bed.as('payViewer', 'DELETE', '/v1/expiry-policies/pay-cap')).statusCode).toBe(403);

    expect((await bed.as('payAdmin', 'POST', '/v1/expiry/sweep?dryRun=true')).statusCode).toBe(403);
    const sweep = await bed.as('platform', 'POST', '/v1/expiry/sweep?dryRun=true');
    expect(sweep.statusCode).toBe(200);
    const changes = sweep.json<{ changes: Array<{ namespace: string; name: string; policy?: string }> }>().changes;
    expect(changes.map((c) => `${c.namespace}/${c.name}:${c.policy}`)).toEqual(['pay/a:pay-cap']);

    const limits = async (ns: string, name: string) =>
      (await bed.as('platform', 'GET', `/v1/clusters/${EAST}/${ns}/${name}/expiry`)).json<{
        limits: { policies: string[]; maxLifetime?: string };
      }>().limits;
    expect(await limits('pay', 'a')).toMatchObject({ policies: ['pay-cap'], maxLifetime: '6h' });
    expect(await limits('ml', 'b')).toMatchObject({ policies: [] });
    expect((await bed.as('payAdmin', 'DELETE', '/v1/expiry-policies/pay-cap')).statusCode).toBe(204);
  });
});

describe('webhooks and warnings', () => {
  it("a team's webhook receives its own team's warnings only; GET /v1/warnings shows each team its own", async () => {
    const hook = (path: string) => ({ url: `http://127.0.0.1:${port}${path}` });
    expect((await bed.as('payAdmin', 'PUT', '/v1/webhooks/pay-hook', hook('/pay'))).json()).toMatchObject({
      team: 'payments',
    });
    expect((await bed.as('mlAdmin', 'PUT', '/v1/webhooks/ml-hook', hook('/ml'))).json()).toMatchObject({ team: 'ml' });
    expect((await bed.as('platform', 'PUT', '/v1/webhooks/all-hook', hook('/all'))).statusCode).toBe(200);
    // Another team's name answers as taken, and its endpoint as missing.
    expect((await bed.as('mlAdmin', 'PUT', '/v1/webhooks/pay-hook', hook('/steal'))).statusCode).toBe(409);
    missingLike(await bed.as('mlAdmin', 'DELETE', '/v1/webhooks/pay-hook'), 'webhook pay-hook not found');
    const listed = (await bed.as('payViewer', 'GET', '/v1/webhooks')).json<{ items: Array<{ name: string }> }>();
    expect(listed.items.map((w) => w.name)).toEqual(['pay-hook']);
    for (const name of ['pay-hook', 'ml-hook', 'all-hook'])
      await bed.system.store.waitFor('WebhookEndpoint', { hub: EAST, namespace: STATE_NS, name }, (o) => o, {
        timeoutMs: 10_000,
      });

    // Both clusters expire 3h after creation; the 1h warning is due 2h after it.
    for (const [ns, name] of [
      ['pay', 'a'],
      ['ml', 'b'],
    ] as const)
      await bed.system.store.mergePatch(
        'ClusterDeployment',
        { hub: EAST, namespace: ns, name },
        {
          metadata: { annotations: { 'hive.openshift.io/delete-after': '3h' } },
        },
      );
    const expiresAt = async (ns: string, name: string) =>
      Date.parse(
        (await bed.as('platform', 'GET', `/v1/clusters/${EAST}/${ns}/${name}/expiry`)).json<{ expiresAt: string }>()
          .expiresAt,
      );
    const pay = await expiresAt('pay', 'a');
    const ml = await expiresAt('ml', 'b');
    expect(Number.isNaN(pay) || Number.isNaN(ml)).toBe(false);

    const shown = async (who: 'payViewer' | 'mlAdmin') =>
      (await bed.as(who, 'GET', '/v1/warnings'))
        .json<{ expiry: Array<{ namespace: string }> }>()
        .expiry.map((w) => w.namespace);
    expect(await shown('payViewer')).toEqual(['pay']);
    expect(await shown('mlAdmin')).toEqual(['ml']);

    const timers = startExpiryTimers({
      store: bed.system.store,
      queue: bed.system.queue,
      clock: bed.clock,
      log: createLogger({ level: 'silent' }),
      stateHub: EAST,
      stateNamespace: STATE_NS,
      teams: configTeamDirectory(bed.config),
    });
    try {
      bed.clock.set(Math.max(pay, ml) - H + 1000);
      // The delivery record on each cluster (written after each delivery) names every endpoint it went to.
      const deliveredTo = (ns: string, name: string, endpoint: string) =>
        bed.system.store.waitFor(
          'ClusterDeployment',
          { hub: EAST, namespace: ns, name },
          (o) =>
            readWarningRecord(o?.metadata.annotations, ns === 'pay' ? pay : ml).sent['1h']?.[endpoint]
              ? true
              : undefined,
          { timeoutMs: 30_000 },
        );
      await Promise.all([
        deliveredTo('pay', 'a', 'pay-hook'),
        deliveredTo('pay', 'a', 'all-hook'),
        deliveredTo('ml', 'b', 'ml-hook'),
        deliveredTo('ml', 'b', 'all-hook'),
      ]);
      const record = (await bed.as('platform', 'GET', '/v1/warnings'))
        .json<{
          expiry: Array<{ namespace: string; delivered: Record<string, Record<string, string>> }>;
        }>()
        .expiry.map(
          (w) =>
            `${w.namespace}:${Object.keys(w.delivered['1h'] ?? {})
              .sort()
              .join(',')}`,
        );
      expect(record.sort()).toEqual(['ml:all-hook,kubernetes-event,ml-hook', 'pay:all-hook,kubernetes-event,pay-hook']);
    } finally {
      timers.close();
    }
    const got = (path: string) =>
      posts
        .filter((p) => p.path === path)
        .map((p) => `${p.body.cluster?.namespace}/${p.body.cluster?.name}`)
        .sort();
    expect(got('/pay')).toEqual(['pay/a']);
    expect(got('/ml')).toEqual(['ml/b']);
    expect(got('/all')).toEqual(['ml/b', 'pay/a']);
  });
});
