// Every expiry change, by any route or policy, is recorded the same way (issue 8, "Every change leaves a trace"):
// a history entry on the object (who, from what to what, why, through which route or policy), an audit log line
// and a Kubernetes Event. Before, PUT .../expiry (set, shorten, clear) left none of the three.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adoptCluster, events, HUB, startBed, type Bed } from './support.js';

const T0 = Date.parse('2026-11-23T09:00:00Z');
const H = 3_600_000;
const NS = 'team-r';
const POLICED = 'team-p';
const PORTAL = 'portal-token-0123456789';
const OPS = 'ops-token-0123456789abc';
const PUT_ROUTE = 'PUT /v1/clusters/:hub/:namespace/:name/expiry';
const b64 = (s: string) => Buffer.from(s).toString('base64');
let bed: Bed;
const lines: Array<Record<string, unknown>> = [];

type Entry = {
  at: string;
  action: string;
  by: string;
  reason?: string;
  via: string;
  principal?: string;
  from?: string;
  to?: string;
};

async function call(method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, token: string, payload?: object) {
  return bed.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
}

const history = async (ns: string, name: string): Promise<Entry[]> =>
  (await call('GET', `/v1/clusters/${HUB}/${ns}/${name}/expiry`, OPS)).json().history;
const auditLines = (name: string) => lines.filter((l) => l.audit === 'expiry' && l.name === name);
/** The last entry, its audit line and its Event: the three traces of one change. */
async function traces(kind: 'cluster' | 'claim', ns: string, name: string, reason: string) {
  const entry =
    kind === 'cluster'
      ? (await history(ns, name)).at(-1)!
      : ((await call('GET', `/v1/claims/${HUB}/${ns}/${name}`, OPS)).json().lifetimeHistory as Entry[]).at(-1)!;
  const line = auditLines(name).at(-1);
  const event = (await events(bed, ns, name)).filter((e) => e.reason === reason).at(-1);
  return { entry, line, event };
}

beforeAll(async () => {
  const logs = new PassThrough();
  let buffered = '';
  logs.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const p of parts) if (p.trim()) lines.push(JSON.parse(p) as Record<string, unknown>);
  });
  bed = await startBed(T0, { logTo: logs, env: { BEEKEEPER_API_TOKENS: `portal=${PORTAL},ops=${OPS}` } });
  for (const name of ['set-me', 'stay']) await adoptCluster(bed, NS, name);
  await adoptCluster(bed, POLICED, 'no-expiry');
  await adoptCluster(bed, POLICED, 'too-long', { annotations: { 'hive.openshift.io/delete-after': '500h' } });
  const policy = await call('POST', '/v1/expiry-policies', OPS, {
    name: 'team-p',
    selector: { namespaces: [POLICED] },
    maxLifetime: '100h',
    defaultLifetime: '48h',
    warnings: ['1h'],
  });
  expect(policy.statusCode, policy.body).toBe(201);
  await bed.system.store.waitFor('ExpiryPolicy', { hub: HUB, namespace: 'beekeeper', name: 'team-p' }, (o) => o, {
    timeoutMs: 10_000,
  });
}, 120_000);

afterAll(async () => {
  await bed?.close();
});

describe('PUT .../expiry, extend and clear: each change leaves a history entry, an audit line and an Event', () => {
  let expires = 0;

  it('set: by the person named (the portal token recorded behind them), with the reason', async () => {
    const res = await call('PUT', `/v1/clusters/${HUB}/${NS}/set-me/expiry`, PORTAL, {
      expiresIn: '10h',
      by: 'alice',
      reason: 'demo until tonight',
    });
    expect(res.statusCode, res.body).toBe(200);
    expires = Date.parse(res.json().cluster.expiry.expiresAt);
    const { entry, line, event } = await traces('cluster', NS, 'set-me', 'ExpirySet');
    expect(entry).toEqual({
      at: expect.any(String),
      action: 'set',
      by: 'alice',
      principal: 'portal',
      reason: 'demo until tonight',
      via: PUT_ROUTE,
      to: new Date(expires).toISOString(),
    });
    expect(line).toMatchObject({
      ...entry,
      kind: 'ClusterDeployment',
      hub: HUB,
      namespace: NS,
      deleteAfter: expect.any(String),
    });
    expect(event?.message).toBe(
      `Expiry none -> ${entry.to} (hive.openshift.io/delete-after=${String(line!.deleteAfter)}) by alice (API token portal) via ${PUT_ROUTE}: demo until tonight`,
    );
  });

  it('shorten: without `by`, the token holder is who; without a reason, the record says so', async () => {
    const res = await call('PUT', `/v1/clusters/${HUB}/${NS}/set-me/expiry`, OPS, { expiresIn: '4h' });
    expect(res.statusCode, res.body).toBe(200);
    const to = res.json().cluster.expiry.expiresAt as string;
    const { entry, line, event } = await traces('cluster', NS, 'set-me', 'ExpiryShortened');
    expect(entry).toEqual({
      at: expect.any(String),
      action: 'shorten',
      by: 'ops',
      via: PUT_ROUTE,
      from: new Date(expires).toISOString(),
      to,
    });
    expect(line).toMatchObject(entry);
    expect(event?.message).toMatch(new RegExp(`^Expiry ${entry.from} -> ${to} .* by ops via .*: no reason given$`));
    expires = Date.parse(to);
  });

  it('extend (POST .../expiry/extend): `by` defaults to the token holder too', async () => {
    const res = await call('POST', `/v1/clusters/${HUB}/${NS}/set-me/expiry/extend`, OPS, {
      extendBy: '2h',
      reason: 'tests still running',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { entry, line, event } = await traces('cluster', NS, 'set-me', 'ExpiryExtended');
    expect(entry).toEqual({
      at: expect.any(String),
      action: 'extend',
      by: 'ops',
      reason: 'tests still running',
      via: 'POST /v1/clusters/:hub/:namespace/:name/expiry/extend',
      from: new Date(expires).toISOString(),
      to: new Date(expires + 2 * H).toISOString(),
    });
    expect(line).toMatchObject(entry);
    expect(event?.message).toContain(
      'by ops via POST /v1/clusters/:hub/:namespace/:name/expiry/extend: tests still running',
    );
  });

  it('clear: from the expiry to none', async () => {
    const res = await call('PUT', `/v1/clusters/${HUB}/${NS}/set-me/expiry`, PORTAL, {
      expiresAt: null,
      by: 'alice',
      reason: 'keeping it',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { entry, line, event } = await traces('cluster', NS, 'set-me', 'ExpiryCleared');
    expect(entry).toMatchObject({
      action: 'clear',
      by: 'alice',
      principal: 'portal',
      reason: 'keeping it',
      from: new Date(expires + 2 * H).toISOString(),
    });
    expect(entry.to).toBeUndefined();
    expect(line).toMatchObject({ ...entry, deleteAfter: null });
    expect(event?.message).toContain(' -> none (hive.openshift.io/delete-after removed) by alice');
    expect((await history(NS, 'set-me')).map((e) => e.action)).toEqual(['set', 'shorten', 'extend', 'clear']);
  });

  it('the same expiry again changes and records nothing; a bad `by` is refused naming it, changing nothing', async () => {
    const first = await call('PUT', `/v1/clusters/${HUB}/${NS}/stay/expiry`, OPS, { expiresIn: '5h' });
    const at = first.json().cluster.expiry.expiresAt as string;
    const again = await call('PUT', `/v1/clusters/${HUB}/${NS}/stay/expiry`, OPS, {
      expiresAt: at,
      reason: 'same again',
    });
    expect(again.statusCode, again.body).toBe(200);
    const bad = await call('PUT', `/v1/clusters/${HUB}/${NS}/stay/expiry`, OPS, { expiresIn: '6h', by: '' });
    expect(bad.statusCode).toBe(422);
    expect(bad.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(bad.json().errors).toContainEqual(expect.objectContaining({ field: 'by' }));
    const blank = await call('PUT', `/v1/clusters/${HUB}/${NS}/stay/expiry`, OPS, { expiresIn: '6h', by: '  ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors).toEqual([expect.objectContaining({ field: 'by' })]);
    const entries = await history(NS, 'stay');
    expect(entries.map((e) => `${e.action}:${e.to}`)).toEqual([`set:${at}`]);
    expect((await events(bed, NS, 'stay')).filter((e) => e.reason?.startsWith('Expiry'))).toHaveLength(1);
  });
});

describe('policy defaults and caps are recorded the same way', () => {
  it('as policy/<name>, through the sweep, with the sweep caller as the token holder', async () => {
    const res = await call('POST', '/v1/expiry/sweep', OPS);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().changes.map((c: { name: string }) => c.name)).toEqual(['no-expiry', 'too-long']);
    const def = await traces('cluster', POLICED, 'no-expiry', 'ExpirySet');
    expect(def.entry).toMatchObject({
      action: 'default',
      by: 'policy/team-p',
      principal: 'ops',
      via: 'POST /v1/expiry/sweep',
      reason: 'no expiry set; policy default lifetime',
    });
    expect(def.line).toMatchObject(def.entry);
    expect(def.event?.message).toContain('by policy/team-p (API token ops) via POST /v1/expiry/sweep');
    const cap = await traces('cluster', POLICED, 'too-long', 'ExpiryCapped');
    expect(cap.entry).toMatchObject({
      action: 'cap',
      by: 'policy/team-p',
      via: 'POST /v1/expiry/sweep',
      from: expect.any(String),
      to: expect.any(String),
    });
    expect(Date.parse(cap.entry.from!) - Date.parse(cap.entry.to!)).toBe(400 * H);
    expect(cap.line).toMatchObject(cap.entry);
  });
});

describe('creation and claims', () => {
  beforeAll(async () => {
    const { store } = bed.system;
    await store.create('Namespace', HUB, { metadata: { name: 'made' } });
    await store.create('Secret', HUB, {
      metadata: { name: 'aws-creds', namespace: 'made' },
      data: { aws_access_key_id: b64('x'), aws_secret_access_key: b64('y') },
    });
    await store.create('Secret', HUB, {
      metadata: { name: 'pull-secret', namespace: 'made' },
      type: 'kubernetes.io/dockerconfigjson',
      data: { '.dockerconfigjson': b64('{"auths":{}}') },
    });
    await store.create('ClusterImageSet', HUB, {
      metadata: { name: 'openshift-v4.17.9' },
      spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.9-x86_64' },
    });
    await store.waitFor('ClusterImageSet', { hub: HUB, name: 'openshift-v4.17.9' }, (o) => o, { timeoutMs: 10_000 });
  }, 60_000);

  it('a cluster created with an expiry records it as its first change, by the creator', async () => {
    const res = await call('POST', '/v1/clusters?wait=60', PORTAL, {
      hub: HUB,
      namespace: 'made',
      name: 'fresh',
      baseDomain: 'example.com',
      imageSet: 'openshift-v4.17.9',
      pullSecretRef: 'pull-secret',
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: 'aws-creds' } },
      expiresIn: '72h',
    });
    expect(res.statusCode, res.body).toBe(200);
    const view = (await call('GET', `/v1/clusters/${HUB}/made/fresh/expiry`, OPS)).json();
    expect(view.deleteAfter).toBe('72h');
    expect(view.history).toEqual([
      {
        at: expect.any(String),
        action: 'set',
        by: 'portal',
        reason: 'given when the cluster was created',
        via: 'POST /v1/clusters',
        to: view.expiresAt,
      },
    ]);
    const { line, event } = await traces('cluster', 'made', 'fresh', 'ExpirySet');
    expect(line).toMatchObject(view.history[0]);
    expect(event?.message).toContain('by portal via POST /v1/clusters: given when the cluster was created');
  }, 60_000);

  it('a claim extension takes `by` and `reason` and is recorded like a cluster extension', async () => {
    const pool = await call('POST', '/v1/pools', OPS, {
      hub: HUB,
      namespace: 'made',
      name: 'ci',
      platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
      baseDomain: 'ci.example.com',
      imageSetName: 'openshift-v4.17.9',
      pullSecretRef: 'pull-secret',
      size: 1,
      runningCount: 1,
    });
    expect(pool.statusCode, pool.body).toBe(201);
    const claim = await call('POST', '/v1/claims?wait=60', PORTAL, { pool: 'ci', name: 'run-7', lifetime: '2h' });
    expect(claim.statusCode, claim.body).toBe(201);
    const res = await call('PATCH', `/v1/claims/${HUB}/made/run-7`, PORTAL, {
      extendBy: '1h',
      by: 'bob',
      reason: 'flaky suite, one more run',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { entry, line, event } = await traces('claim', 'made', 'run-7', 'LifetimeExtended');
    expect(entry).toEqual({
      at: expect.any(String),
      action: 'extend',
      by: 'bob',
      principal: 'portal',
      reason: 'flaky suite, one more run',
      via: 'PATCH /v1/claims/:hub/:namespace/:name',
      from: '2h',
      to: '3h',
    });
    expect(line).toMatchObject({ ...entry, kind: 'ClusterClaim' });
    expect(event?.message).toBe(
      'Lifetime 2h -> 3h by bob (API token portal) via PATCH /v1/claims/:hub/:namespace/:name: flaky suite, one more run',
    );
    const bad = await call('PATCH', `/v1/claims/${HUB}/made/run-7`, PORTAL, { extendBy: '1h', reason: '' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toContainEqual(expect.objectContaining({ field: 'reason' }));
  }, 90_000);
});
