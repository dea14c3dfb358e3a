// Hibernate and resume through the REST API: the job patches spec.powerState and reports every status.powerState
// step Hive goes through (REFERENCE.md §2.5), idempotently, and fails with Hive's reason where Hive cannot act.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import type { KubeObject } from '../../src/services/ports.js';
import { createKubeClient, R } from '../../src/sim/client/index.js';
import { createBody, HUB, prerequisites, runJob, startBed, steps, type Bed } from './support.js';

let bed: Bed;
const ns = 'power-flow';
const url = (name: string, action = '') => `/v1/clusters/${HUB}/${ns}/${name}${action}`;

// Every power step lasts at least 0.2 s: the request sets spec.powerState before the job starts, and a job taken
// up after Hive left a step cannot report it (with real Hive a step lasts tens of seconds).
const STEP = 200_000;
beforeAll(async () => {
  bed = await startBed({
    durations: {
      stopping: STEP,
      machinesStopping: STEP,
      startingMachines: STEP,
      machinesStarting: STEP,
      nodesStarting: STEP,
      clusterOperatorSettle: STEP,
      clusterOperators: STEP,
    },
  });
  await prerequisites(bed, ns);
  const [aws, bare] = await Promise.all([
    runJob(bed.app, 'POST', '/v1/clusters', createBody(ns, 'sleepy')),
    runJob(bed.app, 'POST', '/v1/clusters', { ...createBody(ns, 'bare'), platform: { none: {} } }),
  ]);
  expect([aws.state, bare.state]).toEqual(['completed', 'completed']);
});
afterAll(async () => bed?.close());

describe('power', () => {
  it("a resume right after install follows Hive's post-install resume to Running without changing spec", async () => {
    const job = await runJob(bed.app, 'POST', url('sleepy', '/resume'));
    expect(job.state).toBe('completed');
    expect(job.result).toMatchObject({ powerState: 'Running' });
    const summary = (await bed.app.inject({ method: 'GET', url: url('sleepy') })).json();
    expect(summary).toMatchObject({ phase: 'Running', powerState: { desired: 'Running', observed: 'Running' } });
  });

  it('hibernate reports every stopping step, in order, and ends Hibernating', async () => {
    const job = await runJob(bed.app, 'POST', url('sleepy', '/hibernate'));
    expect(job.state).toBe('completed');
    expect(job.type).toBe('cluster.hibernate');
    expect(steps(job)).toEqual(['HibernateRequested', 'Stopping', 'WaitingForMachinesToStop', 'Hibernating']);
    expect(job.result).toEqual({ powerState: 'Hibernating', changed: true });
    const cd = bed.system.store.cached<ClusterDeployment>('ClusterDeployment', {
      hub: HUB,
      namespace: ns,
      name: 'sleepy',
    })!;
    expect(cd.spec.powerState).toBe('Hibernating');
    expect(cd.status?.powerState).toBe('Hibernating');
    expect((await bed.app.inject({ method: 'GET', url: url('sleepy') })).json().phase).toBe('Hibernating');
  });

  it('hibernating a hibernated cluster completes at once and changes nothing', async () => {
    // Nothing of the cluster: Beekeeper's own beekeeper.io/power-operation annotation names the request, which is
    // how an opposite request at the same moment is refused.
    const before = bed.system.store.cached<ClusterDeployment>('ClusterDeployment', {
      hub: HUB,
      namespace: ns,
      name: 'sleepy',
    })!.metadata.generation;
    const job = await runJob(bed.app, 'POST', url('sleepy', '/hibernate'));
    expect(job.state).toBe('completed');
    expect(steps(job)).toEqual(['AlreadyHibernating']);
    expect(job.result).toEqual({ powerState: 'Hibernating', changed: false });
    expect(
      bed.system.store.cached<ClusterDeployment>('ClusterDeployment', { hub: HUB, namespace: ns, name: 'sleepy' })!
        .metadata.generation,
    ).toBe(before);
    // One transition carried out, one request that found the cluster already there: not two transitions.
    const metrics = (await bed.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toContain(`beekeeper_power_transitions_total{hub="${HUB}",to="Hibernating",outcome="completed"} 1`);
    expect(metrics).toContain(`beekeeper_power_transitions_total{hub="${HUB}",to="Hibernating",outcome="unchanged"} 1`);
  });

  it('resume reports all four resume steps and ends Running', async () => {
    const job = await runJob(bed.app, 'POST', url('sleepy', '/resume'));
    expect(job.state).toBe('completed');
    expect(steps(job)).toEqual([
      'ResumeRequested',
      'StartingMachines',
      'WaitingForMachines',
      'WaitingForNodes',
      'PausingForClusterOperatorsToSettle',
      'WaitingForClusterOperators',
      'Running',
    ]);
    expect(job.steps.find((s) => s.step === 'WaitingForNodes')?.message).toMatch(/step 2\/4/);
    const events = await bed.system.store.list<KubeObject & { reason?: string }>('Event', HUB, { namespace: ns });
    expect(events.map((e) => e.reason)).toEqual(
      expect.arrayContaining(['HibernateRequested', 'Hibernated', 'ResumeRequested', 'Resumed']),
    );
  });

  it('serialises power jobs per cluster: a resume while a hibernate still runs is 409, naming that job', async () => {
    const ref = { hub: HUB, namespace: ns, name: 'sleepy' };
    // reconcile-pause makes Hive leave the cluster alone, so the hibernate job keeps waiting.
    await bed.system.store.mergePatch('ClusterDeployment', ref, {
      metadata: { annotations: { 'hive.openshift.io/reconcile-pause': 'true' } },
    });
    await bed.system.store.waitFor<ClusterDeployment, true>(
      'ClusterDeployment',
      ref,
      (o) => (o?.metadata.annotations?.['hive.openshift.io/reconcile-pause'] ? true : undefined),
      { timeoutMs: 5000 },
    );
    const hibernate = await bed.app.inject({ method: 'POST', url: url('sleepy', '/hibernate') });
    expect(hibernate.statusCode).toBe(202);
    const again = await bed.app.inject({ method: 'POST', url: url('sleepy', '/hibernate') });
    expect(again.json().job.id).toBe(hibernate.json().job.id);
    const resume = await bed.app.inject({ method: 'POST', url: url('sleepy', '/resume') });
    expect(resume.statusCode).toBe(409);
    expect(resume.json().detail).toContain(hibernate.json().job.id);

    await bed.system.store.mergePatch('ClusterDeployment', ref, {
      metadata: { annotations: { 'hive.openshift.io/reconcile-pause': null } },
    });
    const done = await bed.system.queue.waitUntilDone(hibernate.json().job.id, 30_000);
    expect(done.state).toBe('completed');
    expect(done.steps.at(-1)?.step).toBe('Hibernating');
    expect((await runJob(bed.app, 'POST', url('sleepy', '/resume'))).state).toBe('completed');
  });

  it('two opposite power changes sent at once: exactly one is accepted, the other is 409 naming it', async () => {
    const ref = { hub: HUB, namespace: ns, name: 'sleepy' };
    const before = bed.system.store.cached<ClusterDeployment>('ClusterDeployment', ref)!.spec.powerState || 'Running';
    const [hibernate, resume] = await Promise.all([
      bed.app.inject({ method: 'POST', url: url('sleepy', '/hibernate') }),
      bed.app.inject({ method: 'POST', url: url('sleepy', '/resume') }),
    ]);
    const codes = [hibernate.statusCode, resume.statusCode].sort();
    expect(codes, `${hibernate.body} ${resume.body}`).toEqual([202, 409]);
    const [won, lost] = hibernate.statusCode === 202 ? [hibernate, resume] : [resume, hibernate];
    const id = won.json().job.id;
    expect(lost.json().detail).toContain(id);
    const done = await bed.system.queue.waitUntilDone(id, 30_000);
    expect(done.state).toBe('completed');
    const after = bed.system.store.cached<ClusterDeployment>('ClusterDeployment', ref)!.spec.powerState || 'Running';
    expect(after).toBe(won === hibernate ? 'Hibernating' : 'Running');
    if (before !== after) expect(done.result).toEqual({ powerState: after, changed: true });
  });

  it('a request while another writer keeps changing the cluster is read again and accepted, not answered 409', async () => {
    // Hive writes a ClusterDeployment in bursts (status, conditions, labels: about nine writes in the 200 ms after
    // a cluster appears). Another writer here patches a label as fast as the hub answers for 200 ms; the request's
    // conditional PATCH meets "the object has been modified" until the burst ends, and must wait it out.
    const ref = { hub: HUB, namespace: ns, name: 'sleepy' };
    const hub = bed.sim.hubs[0]!.server;
    const other = createKubeClient({ server: hub.url, token: hub.token, insecureSkipTLSVerify: true });
    const now = bed.system.store.cached<ClusterDeployment>('ClusterDeployment', ref)!.spec.powerState || 'Running';
    const action = now === 'Running' ? '/hibernate' : '/resume';
    // At least 200 ms and six writes: on a loaded machine six writes can take longer than 200 ms.
    let writes = 0;
    const until = Date.now() + 200;
    const burst = (async () => {
      while (Date.now() < until || writes < 6)
        await other.mergePatch(R.clusterDeployment, ns, 'sleepy', {
          metadata: { labels: { burst: String(++writes) } },
        });
    })();
    await new Promise((r) => setTimeout(r, 20));
    const writesBefore = writes;
    const res = await bed.app.inject({ method: 'POST', url: url('sleepy', action) });
    await burst;
    expect(res.statusCode, res.body).toBe(202);
    // The positive control: the other writer was still writing after the request came.
    expect(writes).toBeGreaterThan(writesBefore);
    const done = await bed.system.queue.waitUntilDone(res.json().job.id, 30_000);
    expect(done.state).toBe('completed');
    expect(done.result).toEqual({ powerState: now === 'Running' ? 'Hibernating' : 'Running', changed: true });
  });

  it("fails with Hive's Unsupported reason on a platform without a power actuator, leaving spec alone", async () => {
    const job = await runJob(bed.app, 'POST', url('bare', '/hibernate'));
    expect(job.state).toBe('failed');
    expect(job.error?.reason).toBe('Unsupported');
    expect(job.error?.message).toMatch(/Unsupported platform/);
    expect(
      bed.system.store.cached<ClusterDeployment>('ClusterDeployment', { hub: HUB, namespace: ns, name: 'bare' })!.spec
        .powerState,
    ).toBeUndefined();
    expect((await bed.app.inject({ method: 'GET', url: url('bare') })).json().phase).toBe('Unsupported');
  });

  it('refuses power changes for clusters that do not exist or are not installed yet', async () => {
    expect((await bed.app.inject({ method: 'POST', url: url('ghost', '/hibernate') })).statusCode).toBe(404);
    const create = await bed.app.inject({ method: 'POST', url: '/v1/clusters', payload: createBody(ns, 'fresh') });
    expect(create.statusCode).toBe(202);
    await bed.system.store.waitFor('ClusterDeployment', { hub: HUB, namespace: ns, name: 'fresh' }, (o) => o, {
      timeoutMs: 10_000,
    });
    const early = await bed.app.inject({ method: 'POST', url: url('fresh', '/hibernate') });
    expect(early.statusCode).toBe(409);
    expect(early.json().detail).toMatch(/not installed yet/);
  });

  it("refuses hibernating or resuming an unclaimed pool cluster, whose power Hive's pool controller sets", async () => {
    // runningCount 1: Hive keeps the pool's one unclaimed cluster Running and would undo a hibernation by hand.
    await bed.system.store.create('ClusterPool', HUB, {
      apiVersion: 'hive.openshift.io/v1',
      kind: 'ClusterPool',
      metadata: { name: 'hot', namespace: ns },
      spec: {
        size: 1,
        runningCount: 1,
        baseDomain: 'example.com',
        imageSetRef: { name: 'openshift-v4.16.3' },
        pullSecretRef: { name: 'pull-secret' },
        platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
      },
    });
    // The pool's cluster, as the cache sees it become installed (the cache's change feed, not a poll).
    const isMember = (c: ClusterDeployment) => c.spec.clusterPoolRef?.poolName === 'hot' && c.spec.installed;
    const member = await new Promise<ClusterDeployment>((resolve, reject) => {
      const timer = setTimeout(() => (stop(), reject(new Error('the pool made no installed cluster in 30 s'))), 30_000);
      const done = (cd: ClusterDeployment) => (clearTimeout(timer), stop(), resolve(cd));
      const stop = bed.system.store.onChange<ClusterDeployment>('ClusterDeployment', (_hub, _type, cd) => {
        if (isMember(cd)) done(cd);
      });
      const already = bed.system.store
        .cachedList<ClusterDeployment>('ClusterDeployment', { hub: HUB })
        .find((c) => isMember(c.object));
      if (already) done(already.object);
    });
    const at = `/v1/clusters/${HUB}/${member.metadata.namespace}/${member.metadata.name}`;
    for (const action of ['hibernate', 'resume']) {
      const res = await bed.app.inject({ method: 'POST', url: `${at}/${action}` });
      expect(res.statusCode).toBe(409);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json().detail).toBe(
        `ClusterDeployment ${member.metadata.namespace}/${member.metadata.name} cannot change power: unclaimed ` +
          'cluster of pool hot: the pool controller owns its power state, and Hive overwrites a change made to it ' +
          "by hand; claim the cluster, or change the pool's spec.runningCount",
      );
    }
    // Nothing written: the spec as the pool controller left it, no Operation named on it, no Operation for it.
    const live = await bed.system.store.get<ClusterDeployment>('ClusterDeployment', {
      hub: HUB,
      namespace: member.metadata.namespace!,
      name: member.metadata.name,
    });
    expect(live!.spec.powerState).toBe('Running');
    expect(live!.metadata.annotations?.['beekeeper.io/power-operation']).toBeUndefined();
    // Every accepted request is an Operation on the hub first (the creates of beforeAll are there).
    const ops = await bed.system.store.list<KubeObject & { spec: { target: { name: string } } }>('Operation', HUB);
    const targets = ops.map((o) => o.spec.target.name);
    expect(targets).toContain('sleepy');
    expect(targets).not.toContain(member.metadata.name);
  });
});
