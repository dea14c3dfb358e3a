// A create that fails for good takes back the Secrets it wrote (the install-config and the inline credentials);
// while a retry follows it keeps them, since the inline values were never queued and could not be written again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDeployment, Secret } from '../../src/hive/types.js';
import type { JobView } from '../../src/services/ports.js';
import { createBody, HUB, prerequisites, runJob, simFaults, startBed, type Bed } from './support.js';

let bed: Bed;
const ns = 'cleanup';
const REFUSE_CD = { errors: [{ verb: 'create', resource: 'clusterdeployments', rate: 1, code: 503, retryAfterSeconds: 1 }] };

const inline = (name: string) =>
  createBody(ns, name, {
    pullSecretRef: undefined,
    pullSecret: '{"auths":{"quay.io":{"auth":"c2VjcmV0"}}}',
    platform: { aws: { region: 'us-east-1', credentials: { accessKeyID: 'AKIA', secretAccessKey: 'hunter2' } } },
  });
const secret = (name: string) => bed.system.store.get<Secret>('Secret', { hub: HUB, namespace: ns, name });

beforeAll(async () => {
  // Three quick attempts, so "failed for good" comes in well under a second.
  bed = await startBed({ catalog: { 'cluster.create': { attempts: 3, backoffMs: 100 } } });
  await prerequisites(bed, ns);
});
afterAll(async () => bed?.close());

describe('a create that fails after writing', () => {
  it('removes the Secrets it wrote once the hub has refused the ClusterDeployment (503) on every attempt; Secrets it did not write stay', async () => {
    await simFaults(bed, REFUSE_CD);
    let job: JobView;
    try {
      job = await runJob(bed.app, 'POST', '/v1/clusters', inline('refused'));
    } finally {
      await simFaults(bed, {});
    }
    expect(job).toMatchObject({ state: 'failed', attempts: 3, error: { reason: 'Unavailable' } });
    for (const name of ['refused-install-config', 'refused-pull-secret', 'refused-aws-creds']) expect({ name, secret: await secret(name) }).toEqual({ name, secret: undefined });
    // The Secrets other clusters refer to are not this create's.
    expect(await secret('aws-creds')).toBeDefined();
    expect(await secret('pull-secret')).toBeDefined();
  });

  it('keeps them while a retry follows, and the cluster is created with them once the hub recovers', async () => {
    await simFaults(bed, REFUSE_CD);
    const posted = await bed.app.inject({ method: 'POST', url: '/v1/clusters', payload: inline('recovers') });
    expect(posted.statusCode).toBe(202);
    const id = posted.json<{ job: JobView }>().job.id;
    await new Promise<void>((resolve) => {
      const stop = bed.system.queue.watch(id, (v) => v.attempts >= 1 && (stop(), resolve()));
    });
    await simFaults(bed, {});
    const done = (await bed.app.inject({ url: `/v1/jobs/${id}?wait=60` })).json<{ job: JobView }>().job;
    expect(done).toMatchObject({ state: 'completed', result: { installed: true } });
    const cd = await bed.system.store.get<ClusterDeployment>('ClusterDeployment', { hub: HUB, namespace: ns, name: 'recovers' });
    for (const name of ['recovers-install-config', 'recovers-pull-secret', 'recovers-aws-creds']) {
      expect((await secret(name))?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'ClusterDeployment', uid: cd?.metadata.uid });
    }
  });
});
