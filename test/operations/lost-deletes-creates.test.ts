// Issue 9, for deletes and creates: accepted with 202, then Redis loses the jobs before a worker ran them. The
// clusters are deleted and installed all the same (the requests did the DELETE and wrote the ClusterDeployments),
// the job ids answer from Kubernetes, and once the repairer queued the jobs again they follow and report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDeployment } from '../../src/hive/types.js';
import type { JobView } from '../../src/services/ports.js';
import {
  adoptCluster,
  cdWhere,
  eventsOf,
  getJob,
  HUB,
  log,
  operations,
  startBed,
  STATE_NS,
  type Bed,
} from './support.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const doomed = ['d1', 'd2', 'd3', 'd4', 'd5'];
const fresh = ['n1', 'n2', 'n3'];
let bed: Bed;
const ids = new Map<string, string>();

const createBody = (name: string) => ({
  hub: HUB,
  namespace: 'made',
  name,
  baseDomain: 'example.com',
  platform: { aws: { region: 'us-east-1', credentialsSecretRef: 'aws-creds' } },
  imageSet: 'openshift-v4.16.3',
  pullSecretRef: 'pull-secret',
});

beforeAll(async () => {
  bed = await startBed();
  await Promise.all(doomed.map((name) => adoptCluster(bed, 'gone', name)));
  const { store } = bed.api;
  await store.create('Namespace', HUB, { metadata: { name: 'made' } });
  await store.create('Secret', HUB, {
    metadata: { name: 'aws-creds', namespace: 'made' },
    data: { aws_access_key_id: b64('AKIA'), aws_secret_access_key: b64('s3cr3t') },
  });
  await store.create('Secret', HUB, {
    metadata: { name: 'pull-secret', namespace: 'made' },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': b64('{"auths":{}}') },
  } as never);
  await store.create('ClusterImageSet', HUB, {
    metadata: { name: 'openshift-v4.16.3' },
    spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64' },
  });
  await store.waitFor('ClusterImageSet', { hub: HUB, name: 'openshift-v4.16.3' }, (o) => o, { timeoutMs: 10_000 });
}, 120_000);

afterAll(async () => bed?.close());

describe('accepted deletes and creates, then Redis loses their jobs', () => {
  it('both are accepted with 202 while no worker runs, and each left an Operation', async () => {
    for (const name of doomed) {
      const res = await bed.app.inject({ method: 'DELETE', url: `/v1/clusters/${HUB}/gone/${name}` });
      expect(res.statusCode, res.body).toBe(202);
      ids.set(name, res.json<{ job: JobView }>().job.id);
    }
    for (const name of fresh) {
      const res = await bed.app.inject({ method: 'POST', url: '/v1/clusters', payload: createBody(name) });
      expect(res.statusCode, res.body).toBe(202);
      ids.set(name, res.json<{ job: JobView }>().job.id);
    }
    const ops = await operations(bed);
    expect(ops.map((o) => o.metadata.name).sort()).toEqual([...ids.values()].sort());
    await bed.flushRedis();
  });

  it('the deleted clusters are gone and the created ones install, with no job anywhere', async () => {
    await Promise.all(doomed.map((name) => cdWhere(bed, 'gone', name, (cd) => cd === undefined)));
    await Promise.all(
      fresh.map((name) =>
        cdWhere(bed, 'made', name, (cd) => cd?.spec.installed === true && cd.status?.powerState === 'Running'),
      ),
    );
  });

  it('their job ids answer from Kubernetes: a delete shows its cluster gone, a create its cluster running', async () => {
    for (const name of doomed) {
      const { status, job } = await getJob(bed, ids.get(name)!);
      expect({ name, status }).toEqual({ name, status: 200 });
      expect(job).toMatchObject({ type: 'cluster.delete', source: 'kubernetes', state: 'waiting' });
      expect(job!.steps.at(-1)?.step).toBe('TargetGone');
    }
    for (const name of fresh) {
      const { status, job } = await getJob(bed, ids.get(name)!);
      expect({ name, status }).toEqual({ name, status: 200 });
      expect(job).toMatchObject({ type: 'cluster.create', source: 'kubernetes' });
      expect(job!.steps.at(-1)).toMatchObject({
        step: 'Running',
        message: expect.stringContaining('status.powerState Running'),
      });
    }
  });

  it('a ?wait on a lost job ends once the repairer queued it again and it ran, and its view then follows the job', async () => {
    const waiting = getJob(bed, ids.get('n1')!, 60);
    const worker = await bed.start(['worker']);
    const { repairOperations } = await import('../../src/services/operations/repair-operations.js');
    // Past the repairer's grace for requests still in progress, and within the ?wait above.
    bed.clock.advance(31_000);
    const repairs = await repairOperations({
      store: worker.store,
      queue: worker.queue,
      clock: bed.clock,
      log,
      stateHub: HUB,
      stateNamespace: STATE_NS,
      jobs: bed.config.jobs,
    });
    expect(repairs.map((r) => r.repair)).toEqual(Array(doomed.length + fresh.length).fill('operation-requeued'));

    const waited = (await waiting).job;
    expect(waited).toMatchObject({ id: ids.get('n1'), state: 'completed', result: { installed: true } });
    for (const name of fresh) {
      const { job } = await getJob(bed, ids.get(name)!, 60);
      expect(job).toMatchObject({ state: 'completed', result: { installed: true, phase: 'Running' } });
      expect(job!.source).toBeUndefined();
      expect(job!.steps.map((s) => s.step)).toEqual(
        expect.arrayContaining(['InstallConfigWritten', 'ClusterDeploymentCreated']),
      );
      // The job followed the cluster the request made; it made no other.
      expect((await eventsOf(bed, 'made', name)).filter((e) => e.reason === 'ClusterCreated')).toHaveLength(1);
    }
    for (const name of doomed) {
      const { job } = await getJob(bed, ids.get(name)!, 60);
      expect(job).toMatchObject({ state: 'completed', result: { deleted: true } });
      expect(job!.steps.map((s) => s.step)).toEqual(['DeleteRequested', 'Deleted']);
      expect((await eventsOf(bed, 'gone', name)).filter((e) => e.reason === 'DeleteRequested')).toHaveLength(1);
    }
    const ops = await operations(bed);
    expect(ops.map((o) => o.status?.phase)).toEqual(Array(ops.length).fill('Succeeded'));
    await worker.close();
  });

  it('a create whose cluster was deleted before its lost job ran again fails, and makes no second cluster', async () => {
    const res = await bed.app.inject({ method: 'POST', url: '/v1/clusters', payload: createBody('n9') });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json<{ job: JobView }>().job.id;
    expect(await bed.api.queue.get(id)).toBeDefined();
    await bed.flushRedis();
    const cd = await cdWhere(bed, 'made', 'n9', (o) => o !== undefined);
    await bed.api.store.delete(
      'ClusterDeployment',
      { hub: HUB, namespace: 'made', name: 'n9' },
      { uid: cd!.metadata.uid },
    );
    await cdWhere(bed, 'made', 'n9', (o) => o === undefined);

    const running = await bed.start(['worker']);
    const { repairOperations } = await import('../../src/services/operations/repair-operations.js');
    bed.clock.advance(60_000);
    await repairOperations({
      store: running.store,
      queue: running.queue,
      clock: bed.clock,
      log,
      stateHub: HUB,
      stateNamespace: STATE_NS,
      jobs: bed.config.jobs,
    });
    const { job } = await getJob(bed, id, 60);
    expect(job).toMatchObject({ state: 'failed', error: { reason: 'Deleted' } });
    expect(
      bed.api.store.cached<ClusterDeployment>('ClusterDeployment', { hub: HUB, namespace: 'made', name: 'n9' }),
    ).toBeUndefined();
    expect(await bed.api.store.get('ClusterDeployment', { hub: HUB, namespace: 'made', name: 'n9' })).toBeUndefined();
  });
});
