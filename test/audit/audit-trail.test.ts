// The audit trail through HTTP (docs/audit.md): every mutating request and every secret read makes one record,
// as a log line (`audit: true`) and as an Event on the object (read back from the simulator over HTTP), carrying
// the request's X-Request-Id and never a token or a secret; GET /v1/audit reads them back for admins, filtered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { createBody, prerequisites } from '../clusters/support.js';
import { HUB, STATE_NAMESPACE, TOKENS, startBed, type Bed } from './support.js';
import { trailReaders } from './trail-readers.js';

let bed: Bed;
const NS = 'a-ns';
const { traces, audit } = trailReaders(() => bed);
const requestIds: Record<string, string> = {};

beforeAll(async () => {
  bed = await startBed();
  await prerequisites(bed as never, NS);
  const created = await bed.as('ann', { method: 'POST', url: '/v1/clusters?wait=60', payload: createBody(NS, 'c1') });
  expect(created.statusCode).toBe(200);
  requestIds.create = created.headers['x-request-id'] as string;
}, 90_000);

afterAll(async () => {
  await bed?.close();
});

describe('one audit record per request, in the log and as an Event on the object', () => {
  it('a create names the object its answer created, with the team owning its namespace', async () => {
    const { line, events } = await traces(requestIds.create!, NS);
    expect(line).toMatchObject({
      audit: true,
      level: 30,
      action: 'createCluster',
      actor: { name: 'ann', via: 'token', role: 'admin' },
      team: 'team-a',
      object: { kind: 'ClusterDeployment', hub: HUB, namespace: NS, name: 'c1' },
      result: { status: 200, outcome: 'allowed' },
    });
    expect(events).toHaveLength(1);
    expect(events[0]!.event.involvedObject).toMatchObject({ kind: 'ClusterDeployment', name: 'c1', namespace: NS });
  });

  it('a hibernate: the actor, their team and role, the action, the cluster, the result and the request id', async () => {
    // The caller's own X-Request-Id (a portal's correlation id) is the one recorded.
    const requestId = `portal-${Date.now()}`;
    const res = await bed.as('otto', {
      method: 'POST',
      url: `/v1/clusters/${HUB}/${NS}/c1/hibernate?wait=60`,
      headers: { 'x-request-id': requestId },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe(requestId);
    requestIds.hibernate = requestId;
    const { line, events } = await traces(requestId, NS);
    const expected = {
      requestId,
      action: 'hibernateCluster',
      route: 'POST /v1/clusters/:hub/:namespace/:name/hibernate',
      actor: { name: 'otto', via: 'token', role: 'operator' },
      team: 'team-a',
      object: { kind: 'ClusterDeployment', hub: HUB, namespace: NS, name: 'c1' },
      result: { status: 200, outcome: 'allowed' },
    };
    expect(line).toMatchObject({ audit: true, level: 30, ...expected });
    expect(bed.lines.filter((l) => l.audit === true && l.requestId === requestId)).toHaveLength(1);

    expect(events).toHaveLength(1);
    const { event, record } = events[0]!;
    expect(record).toMatchObject(expected);
    expect(event).toMatchObject({
      type: 'Normal',
      reason: 'AuditHibernateCluster',
      involvedObject: { kind: 'ClusterDeployment', name: 'c1', namespace: NS },
      metadata: { labels: { 'beekeeper.io/audit': 'true' } },
    });
    expect(event.message).toContain('otto');
    expect(event.message).toContain(requestId);

    const listed = await audit('root', { action: 'hibernateCluster' });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items.map((r: { requestId: string }) => r.requestId)).toEqual([requestId]);
  });

  it('a kubeconfig read is recorded once, and the kubeconfig appears in no log line and no Event', async () => {
    const res = await bed.as('otto', { method: 'GET', url: `/v1/clusters/${HUB}/${NS}/c1/kubeconfig` });
    expect(res.statusCode).toBe(200);
    const requestId = res.headers['x-request-id'] as string;
    requestIds.kubeconfig = requestId;
    const { line, events } = await traces(requestId, NS);
    expect(line).toMatchObject({
      action: 'getClusterKubeconfig',
      actor: { name: 'otto' },
      team: 'team-a',
      result: { status: 200, outcome: 'allowed' },
    });
    expect(events).toHaveLength(1);
    expect(events[0]!.event.reason).toBe('AuditGetClusterKubeconfig');
    // The read is audited once: no second Event of the old kind.
    const all = await bed.system.store.list<any>('Event', HUB, { namespace: NS });
    expect(all.filter((e) => e.reason === 'KubeconfigRead')).toEqual([]);
    const secretLines = res.body.split('\n').filter((l) => l.trim().length >= 20);
    expect(secretLines.length).toBeGreaterThan(0);
    const logged = JSON.stringify(bed.lines) + JSON.stringify(all);
    for (const s of secretLines) expect(logged).not.toContain(s.trim());
  });

  it('an expiry change carries the reason and the person the request named', async () => {
    const res = await bed.as('otto', {
      method: 'PUT',
      url: `/v1/clusters/${HUB}/${NS}/c1/expiry`,
      payload: { expiresIn: '4h', by: 'carol', reason: 'demo on friday' },
    });
    expect(res.statusCode).toBe(200);
    const { line, events } = await traces(res.headers['x-request-id'] as string, NS);
    expect(line).toMatchObject({
      action: 'setClusterExpiry',
      actor: { name: 'otto', onBehalfOf: 'carol' },
      reason: 'demo on friday',
    });
    expect(events[0]!.event.message).toContain('demo on friday');
  });

  it('a refused request is recorded: a missing cluster in the state namespace, a bad token without an actor', async () => {
    const missing = await bed.as('otto', { method: 'POST', url: `/v1/clusters/${HUB}/${NS}/nope/hibernate` });
    expect(missing.statusCode).toBe(404);
    const m = await traces(missing.headers['x-request-id'] as string, STATE_NAMESPACE);
    expect(m.line).toMatchObject({
      action: 'hibernateCluster',
      actor: { name: 'otto' },
      team: 'team-a',
      object: { kind: 'ClusterDeployment', hub: HUB, namespace: NS, name: 'nope' },
      result: { status: 404, outcome: 'refused' },
    });
    expect(m.events).toHaveLength(1);
    expect(m.events[0]!.event).toMatchObject({
      type: 'Warning',
      reason: 'AuditHibernateCluster',
      involvedObject: { kind: 'Namespace', name: STATE_NAMESPACE },
    });

    // An operator may not delete: refused by authorization, recorded on the cluster it was about.
    const forbidden = await bed.as('otto', { method: 'DELETE', url: `/v1/clusters/${HUB}/${NS}/c1` });
    expect(forbidden.statusCode).toBe(403);
    const f = await traces(forbidden.headers['x-request-id'] as string, NS);
    expect(f.line).toMatchObject({
      action: 'deleteCluster',
      actor: { name: 'otto', role: 'operator' },
      team: 'team-a',
      result: { status: 403, outcome: 'refused' },
    });
    expect(f.events).toHaveLength(1);
    expect(f.events[0]!.event).toMatchObject({
      type: 'Warning',
      involvedObject: { kind: 'ClusterDeployment', name: 'c1' },
    });

    const bad = await bed.as('nobody', { method: 'POST', url: `/v1/clusters/${HUB}/${NS}/c1/resume` });
    expect(bad.statusCode).toBe(401);
    const b = await traces(bad.headers['x-request-id'] as string, NS);
    expect(b.line).toMatchObject({
      action: 'resumeCluster',
      actor: { name: 'unauthenticated', via: 'none' },
      result: { status: 401, outcome: 'refused' },
    });
    expect(b.line.actor).not.toHaveProperty('role');

    const invalid = await bed.as('otto', {
      method: 'POST',
      url: '/v1/clusters',
      payload: { hub: HUB, namespace: NS, name: 'broken' },
    });
    expect(invalid.statusCode).toBeGreaterThanOrEqual(400);
    const i = await traces(invalid.headers['x-request-id'] as string, STATE_NAMESPACE);
    expect(i.line).toMatchObject({
      action: 'createCluster',
      object: { kind: 'ClusterDeployment', hub: HUB, namespace: NS, name: 'broken' },
      result: { outcome: 'refused' },
    });
    expect(i.events).toHaveLength(1);
  });

  it('a delete is recorded on the cluster it deletes', async () => {
    const res = await bed.as('ann', { method: 'DELETE', url: `/v1/clusters/${HUB}/${NS}/c1` });
    expect(res.statusCode).toBe(202);
    requestIds.delete = res.headers['x-request-id'] as string;
    const { line, events } = await traces(requestIds.delete, NS);
    expect(line).toMatchObject({
      action: 'deleteCluster',
      actor: { name: 'ann', role: 'admin' },
      team: 'team-a',
      result: { status: 202, outcome: 'allowed' },
    });
    expect(events).toHaveLength(1);
    expect(events[0]!.event.involvedObject).toMatchObject({ kind: 'ClusterDeployment', name: 'c1' });
  });

  it("Beekeeper's own objects get their Events in the state namespace, on the object", async () => {
    const created = await bed.as('ann', {
      method: 'POST',
      url: '/v1/expiry-policies',
      payload: { name: 'audit-sample', selector: { namespaces: [NS] }, maxLifetime: '72h' },
    });
    expect(created.statusCode).toBe(201);
    const c = await traces(created.headers['x-request-id'] as string, STATE_NAMESPACE);
    expect(c.line).toMatchObject({
      action: 'createExpiryPolicy',
      team: 'team-a',
      object: { kind: 'ExpiryPolicy', hub: HUB, namespace: STATE_NAMESPACE, name: 'audit-sample' },
      result: { status: 201, outcome: 'allowed' },
    });
    expect(c.events[0]!.event.involvedObject).toMatchObject({ kind: 'ExpiryPolicy', name: 'audit-sample' });

    const deleted = await bed.as('ann', { method: 'DELETE', url: '/v1/expiry-policies/audit-sample' });
    expect(deleted.statusCode).toBeLessThan(300);
    const d = await traces(deleted.headers['x-request-id'] as string, STATE_NAMESPACE);
    expect(d.line).toMatchObject({
      action: 'deleteExpiryPolicy',
      object: { kind: 'ExpiryPolicy', name: 'audit-sample' },
    });
    expect(d.events[0]!.event.involvedObject).toMatchObject({ kind: 'ExpiryPolicy', name: 'audit-sample' });
  });

  it('no token and no body appears in any audit line or Event', async () => {
    const recorded = JSON.stringify(bed.lines) + JSON.stringify(await bed.auditEvents(NS));
    for (const token of Object.values(TOKENS)) expect(recorded).not.toContain(token);
    for (const line of bed.lines.filter((l) => l.audit === true)) {
      expect(line).not.toHaveProperty('body');
      expect(Object.keys(line).sort()).toEqual(
        expect.arrayContaining(['action', 'actor', 'id', 'object', 'requestId', 'result', 'route', 'time']),
      );
    }
  });
});

describe('GET /v1/audit', () => {
  it('filters by actor, action, object, result and time, newest first, in pages', async () => {
    const byOtto = (await audit('root', { actor: 'otto' })).json().items as Array<Record<string, any>>;
    expect(byOtto.length).toBeGreaterThanOrEqual(4);
    expect(byOtto.every((r) => r.actor.name === 'otto')).toBe(true);
    expect(byOtto.map((r) => r.requestId)).toEqual(
      expect.arrayContaining([requestIds.hibernate, requestIds.kubeconfig]),
    );
    const times = byOtto.map((r) => r.time as string);
    expect([...times].sort().reverse()).toEqual(times);

    const refused = (await audit('root', { result: 'refused' })).json().items as Array<Record<string, any>>;
    expect(refused.length).toBeGreaterThanOrEqual(3);
    expect(refused.every((r) => r.result.outcome === 'refused')).toBe(true);

    const onC1 = (await audit('root', { hub: HUB, namespace: NS, name: 'c1' })).json().items as Array<
      Record<string, any>
    >;
    expect(onC1.every((r) => r.object.name === 'c1')).toBe(true);
    expect(onC1.map((r) => r.action)).toEqual(
      expect.arrayContaining(['createCluster', 'hibernateCluster', 'getClusterKubeconfig', 'deleteCluster']),
    );

    const future = new Date(Date.parse(times[0]!) + 60_000).toISOString();
    expect((await audit('root', { since: future })).json().items).toEqual([]);
    expect((await audit('root', { until: times.at(-1)!, actor: 'otto' })).json().items).toHaveLength(1);

    const first = (await audit('root', { actor: 'otto', limit: 1 })).json();
    expect(first.items).toHaveLength(1);
    expect(first.items[0].id).toBe(byOtto[0]!.id);
    const second = (await audit('root', { actor: 'otto', limit: 1, cursor: first.nextCursor })).json();
    expect(second.items[0].id).toBe(byOtto[1]!.id);

    const badCursor = await audit('root', { cursor: 'not-a-cursor' });
    expect(badCursor.statusCode).toBe(422);
    expect(badCursor.json().errors).toEqual([expect.objectContaining({ field: 'cursor' })]);
  });

  it("only admins read it: a team admin sees their teams' records, others' are hidden, an operator is refused", async () => {
    const outsider = await bed.as('root', { method: 'DELETE', url: `/v1/clusters/${HUB}/nobodys-ns/x` });
    expect(outsider.statusCode).toBe(404);
    const outsiderId = outsider.headers['x-request-id'] as string;
    await traces(outsiderId, STATE_NAMESPACE);

    const operator = await audit('otto');
    expect(operator.statusCode).toBe(403);
    expect(operator.json()).toMatchObject({ code: 'Forbidden' });

    const ann = (await audit('ann')).json().items as Array<Record<string, any>>;
    expect(ann.length).toBeGreaterThan(0);
    expect(ann.every((r) => r.team === 'team-a')).toBe(true);
    expect(ann.map((r) => r.requestId)).not.toContain(outsiderId);

    expect((await audit('bea')).json().items).toEqual([]);
    expect((await audit('bea', { team: 'team-a' })).json().items).toEqual([]);

    const root = (await audit('root')).json().items as Array<Record<string, any>>;
    expect(root.map((r) => r.requestId)).toContain(outsiderId);
    // The read of the trail is not itself a record.
    expect(root.map((r) => r.action)).not.toContain('listAuditRecords');
  });

  it('beekeeper audit prints the trail, filtered by actor and object', async () => {
    const url = await bed.app.listen({ host: '127.0.0.1', port: 0 });
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      env: { BEEKEEPER_URL: url, BEEKEEPER_TOKEN: TOKENS.root },
      out: (t: string) => void out.push(t),
      err: (t: string) => void err.push(t),
      writeSecretFile: async () => undefined,
      signal: new AbortController().signal,
    };
    const json = await runCli(
      ['audit', '--actor', 'otto', '--since', '1h', '--object', `${HUB}/${NS}/c1`, '--json'],
      io,
    );
    expect(json).toBe(0);
    const items = JSON.parse(out.join('\n')) as Array<Record<string, any>>;
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((r) => r.actor.name === 'otto' && r.object.name === 'c1')).toBe(true);

    out.length = 0;
    expect(await runCli(['audit', '--action', 'hibernateCluster'], io)).toBe(0);
    expect(out.join('\n')).toMatch(/TIME\s+ACTOR\s+TEAM\s+ACTION\s+OBJECT\s+RESULT\s+REQUEST/);
    expect(out.join('\n')).toContain(requestIds.hibernate);

    expect(await runCli(['audit', '--object', 'a/b/c/d'], io)).toBe(2);
  });
});
