// The least-privilege flow run: Beekeeper on two simulated hubs with nothing but the shipped RBAC (east, the state
// hub: deploy/base/rbac.yaml; west: deploy/hub-access), carrying out the main flows through its API. The simulator
// enforces the roles as kube-apiserver's RBAC authorizer does; any request they do not allow is a refusal the last
// test reports, naming the verb, resource and namespace to add to src/kube/permissions.ts.
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src/services/ports.js';
import { EAST, WEST, createBody, type TwoHubBed } from '../relocations/support.js';
import { PERMISSIONS } from '../../src/kube/permissions.js';
import { asAdmin, refusals } from '../support/least-privilege.js';
import { HOUR, NOT_EXERCISED_HERE, flows, startLeastPrivilegeBed } from './least-privilege-bed.js';

let bed: TwoHubBed;
let receiver: Server;

beforeAll(async () => {
  ({ bed, receiver } = await startLeastPrivilegeBed());
}, 60_000);

afterAll(async () => {
  await bed?.close();
  await new Promise((r) => receiver?.close(r));
});

const { api, job, cd, until, power } = flows(() => bed);

describe('Beekeeper with only the shipped RBAC on two hubs', () => {
  it('signs callers in from the tokens Secret and by TokenReview', async () => {
    expect((await api('GET', '/v1/me')).statusCode).toBe(200);
    const hub = bed.sim.hubs[0]!;
    await asAdmin(hub, 'POST', '/api/v1/namespaces/lp-apps/serviceaccounts', { metadata: { name: 'ci-bot' } });
    const issued = await asAdmin(hub, 'POST', '/api/v1/namespaces/lp-apps/serviceaccounts/ci-bot/token', {
      spec: { expirationSeconds: 3600 },
    });
    const saToken = ((await issued.json()) as { status: { token: string } }).status.token;
    const me = await api('GET', '/v1/me', undefined, saToken);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.body).toContain('system:serviceaccount:lp-apps:ci-bot');
  });

  it('installs a cluster with its install-config and Secrets, hibernates and resumes it', async () => {
    expect((await job('POST', '/v1/clusters', createBody(EAST, 'lp-apps', 'app'))).state).toBe('completed');
    await power(EAST, 'lp-apps', 'app', 'Running');
    const kubeconfig = await api('GET', '/v1/clusters/east/lp-apps/app/kubeconfig');
    expect(kubeconfig.statusCode, kubeconfig.body).toBe(200);
    expect((await job('POST', '/v1/clusters/east/lp-apps/app/hibernate', {})).state).toBe('completed');
    await power(EAST, 'lp-apps', 'app', 'Hibernating');
    expect((await job('POST', '/v1/clusters/east/lp-apps/app/resume', {})).state).toBe('completed');
    await power(EAST, 'lp-apps', 'app', 'Running');
  });

  it('keeps schedules, overrides, expiry policies and webhooks in its namespace and sweeps', async () => {
    const schedule = await api('POST', '/v1/schedules', {
      name: 'office',
      timeZone: 'UTC',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'], start: '00:00', end: '00:01' }],
      targets: { namespaces: ['lp-apps'] },
    });
    expect(schedule.statusCode, schedule.body).toBe(201);
    const override = await api('POST', '/v1/clusters/east/lp-apps/app/overrides', {
      type: 'keepAwake',
      for: '2h',
      by: 'ci',
      reason: 'least-privilege run',
    });
    expect(override.statusCode, override.body).toBeLessThan(300);
    const longer = await api('POST', '/v1/clusters/east/lp-apps/app/overrides', {
      type: 'keepAwake',
      for: '4h',
      by: 'ci',
      reason: 'least-privilege run, longer',
    });
    expect(longer.statusCode, longer.body).toBeLessThan(300);
    const policy = await api('POST', '/v1/expiry-policies', {
      name: 'ten-days',
      selector: { namespaces: ['lp-apps'] },
      maxLifetime: '240h',
    });
    expect(policy.statusCode, policy.body).toBe(201);
    const { port } = receiver.address() as AddressInfo;
    const hook = await api('PUT', '/v1/webhooks/ops', {
      url: `http://127.0.0.1:${port}/hook`,
      secret: `whsec_${randomBytes(32).toString('base64')}`,
    });
    expect(hook.statusCode, hook.body).toBeLessThan(300);
    const again = await api('PUT', '/v1/webhooks/ops', {
      url: `http://127.0.0.1:${port}/hook`,
      secret: `whsec_${randomBytes(32).toString('base64')}`,
    });
    expect(again.statusCode, again.body).toBeLessThan(300);
    await until('the schedule in the cache', () =>
      bed.system.store.cached('HibernationSchedule', { hub: EAST, namespace: 'beekeeper', name: 'office' }),
    );
    const run = await api('POST', '/v1/schedules/office/run?wait=30');
    expect(run.statusCode, run.body).toBe(200);
    const sweep = await api('POST', '/v1/expiry/sweep');
    expect(sweep.statusCode, sweep.body).toBe(200);
    expect((await api('DELETE', '/v1/clusters/east/lp-apps/app/overrides')).statusCode).toBeLessThan(300);

    // Replaced, then deleted.
    const put = await api('PUT', '/v1/schedules/office', {
      timeZone: 'Europe/Berlin',
      windows: [{ days: ['Mon'], start: '08:00', end: '18:00' }],
      targets: { namespaces: ['lp-apps'] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const putPolicy = await api('PUT', '/v1/expiry-policies/ten-days', {
      selector: { namespaces: ['lp-apps'] },
      maxLifetime: '480h',
    });
    expect(putPolicy.statusCode, putPolicy.body).toBe(200);
    for (const url of ['/v1/schedules/office', '/v1/expiry-policies/ten-days', '/v1/webhooks/ops'])
      expect((await api('DELETE', url)).statusCode, url).toBeLessThan(300);
  });

  it('sets delete-after, and the cluster is gone after it', async () => {
    expect((await job('POST', '/v1/clusters', createBody(EAST, 'lp-apps', 'brief'))).state).toBe('completed');
    const set = await api('PUT', '/v1/clusters/east/lp-apps/brief/expiry', { expiresIn: '2h' });
    expect(set.statusCode, set.body).toBe(200);
    bed.clock.advance(3 * HOUR);
    await until('the expired cluster deleted', () => (cd(EAST, 'lp-apps', 'brief') ? undefined : true));
  });

  it('creates a pool on the remote hub, claims from it, reads the kubeconfig, beats and releases', async () => {
    const pool = await api('POST', '/v1/pools', {
      hub: WEST,
      namespace: 'lp-pools',
      name: 'warm',
      platform: { type: 'aws', region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
      baseDomain: 'example.com',
      imageSetName: 'openshift-v4.16.3',
      pullSecretRef: 'pull-secret',
      size: 1,
      runningCount: 1,
    });
    expect(pool.statusCode, pool.body).toBe(201);
    const claim = await api('POST', '/v1/claims?wait=45', {
      pool: 'west/lp-pools/warm',
      name: 'mine',
      heartbeatTimeout: '1h',
    });
    expect(claim.statusCode, claim.body).toBeLessThan(300);
    expect(claim.json().phase, claim.body).toBe('Running');
    const id = '/v1/claims/west/lp-pools/mine';
    const kubeconfig = await api('GET', `${id}/kubeconfig`);
    expect(kubeconfig.statusCode, kubeconfig.body).toBe(200);
    expect((await api('POST', `${id}/heartbeat`, {})).statusCode).toBe(200);
    const extended = await api('PATCH', id, { extendBy: '1h', by: 'ci', reason: 'least-privilege run' });
    expect(extended.statusCode, extended.body).toBe(200);
    const released = await api('DELETE', id);
    expect(released.statusCode, released.body).toBeLessThan(300);
    await until('the claim gone', () =>
      bed.system.store.cached('ClusterClaim', { hub: WEST, namespace: 'lp-pools', name: 'mine' }) ? undefined : true,
    );
    const resized = await api('PATCH', '/v1/pools/west/lp-pools/warm', { size: 0, runningCount: 0 });
    expect(resized.statusCode, resized.body).toBe(200);
    expect((await api('DELETE', '/v1/pools/west/lp-pools/warm')).statusCode).toBeLessThan(300);
  }, 60_000);

  it('relocates a cluster from the state hub to the remote hub', async () => {
    // An image set only the source has: the relocation copies it to the destination.
    await bed.admin.create('ClusterImageSet', EAST, {
      metadata: { name: 'openshift-v4.17.9' },
      spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.9-x86_64' },
    });
    const mover = createBody(EAST, 'lp-apps', 'mover', { imageSet: 'openshift-v4.17.9' });
    expect((await job('POST', '/v1/clusters', mover)).state).toBe('completed');
    await power(EAST, 'lp-apps', 'mover', 'Running');
    // The namespace already on the destination: preflight compares its Secrets and ConfigMaps with the source's.
    await bed.admin.create('Namespace', WEST, { metadata: { name: 'lp-apps' } });
    const res = await api('POST', '/v1/relocations', {
      from: EAST,
      to: WEST,
      clusters: [{ namespace: 'lp-apps', name: 'mover' }],
    });
    expect(res.statusCode, res.body).toBe(202);
    const done = await bed.system.queue.waitUntilDone(res.json().job.id, 45_000);
    expect(done.state, JSON.stringify(done)).toBe('completed');
    const view = await api('GET', `/v1/relocations/${res.json().relocation.id}`);
    expect(view.json()).toMatchObject({ phase: 'Succeeded' });
    expect(cd(WEST, 'lp-apps', 'mover')).toBeDefined();
    expect(bed.system.store.cached('ClusterImageSet', { hub: WEST, name: 'openshift-v4.17.9' })).toBeDefined();
  }, 60_000);

  it('deletes a cluster', async () => {
    expect((await job('DELETE', '/v1/clusters/east/lp-apps/app')).state).toBe('completed');
    await until('the cluster gone', () => (cd(EAST, 'lp-apps', 'app') ? undefined : true));
  });

  it('reports its last resync', async () => {
    const res = await until('a resync recorded', async () => {
      const r = await api('GET', '/v1/resync');
      return r.statusCode === 200 && r.json().lastResync ? r : undefined;
    });
    expect(res.statusCode).toBe(200);
  });

  it('lists its audit trail from the Events it wrote on both hubs', async () => {
    const res = await api('GET', '/v1/audit?limit=500');
    expect(res.statusCode, res.body).toBe(200);
    const hubs = new Set(res.json<{ items: Array<{ object: { hub?: string } }> }>().items.map((i) => i.object.hub));
    expect(hubs).toContain(EAST);
    expect(hubs).toContain(WEST);
  });

  it('was refused nothing in those flows', () => {
    expect(refusals(bed.sim.hubs, bed.users)).toEqual([]);
  });

  it('used the grants of the table, except those on paths this run does not take', () => {
    const used = new Set(bed.users.flatMap((u) => bed.sim.hubs.flatMap((h) => h.server.allowed(u))));
    const unused = PERMISSIONS.flatMap((p) => p.verbs.map((v) => `${v} ${p.group}/${p.resource}`)).filter(
      (g) => !used.has(g),
    );
    // A grant the table gains and no flow here uses must be added to the run or, with its reason, to this list.
    expect(unused.filter((g) => !NOT_EXERCISED_HERE.has(g))).toEqual([]);
  });

  it('is refused what the roles do not grant (the simulator enforces them)', async () => {
    const token = /token: (\S+)/.exec(bed.config.hubs[0]!.kubeconfigData!)![1]!;
    const as = (path: string, method = 'GET') =>
      fetch(`${bed.sim.hubs[0]!.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    expect((await as('/api/v1/secrets?watch=true')).status).toBe(403);
    expect((await as('/apis/rbac.authorization.k8s.io/v1/namespaces/lp-apps/rolebindings')).status).toBe(403);
    expect((await as('/api/v1/namespaces/lp-apps', 'DELETE')).status).toBe(403);
    expect((await as('/apis/beekeeper.io/v1alpha1/namespaces/lp-apps/hibernationschedules')).status).toBe(403);

    // Without `patch` on ClusterDeployments on the remote hub, hibernating there fails and says why.
    const west = bed.sim.hubs[1]!;
    const path = '/apis/rbac.authorization.k8s.io/v1/clusterroles/beekeeper-hub';
    const role = (await (await asAdmin(west, 'GET', path)).json()) as KubeObject & {
      rules: Array<{ resources: string[]; verbs: string[] }>;
    };
    const cut = structuredClone(role);
    cut.rules.find((r) => r.resources[0] === 'clusterdeployments')!.verbs = ['get', 'list', 'watch'];
    expect((await asAdmin(west, 'PUT', path, cut)).status).toBe(200);
    try {
      const refused = await api('POST', '/v1/clusters/west/lp-apps/mover/hibernate?wait=60', {});
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toMatch(
        /cannot patch resource "clusterdeployments" in API group "hive.openshift.io"/,
      );
    } finally {
      const fresh = (await (await asAdmin(west, 'GET', path)).json()) as KubeObject;
      expect((await asAdmin(west, 'PUT', path, { ...role, metadata: fresh.metadata })).status).toBe(200);
    }
    const refused = refusals(bed.sim.hubs, bed.users).map((r) => /cannot (\S+ resource "[^"]+")/.exec(r)?.[1]);
    expect(new Set(refused)).toEqual(
      new Set([
        'watch resource "secrets"',
        'list resource "rolebindings"',
        'delete resource "namespaces"',
        'list resource "hibernationschedules"',
        'patch resource "clusterdeployments"',
      ]),
    );
  });
});
