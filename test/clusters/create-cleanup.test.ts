// A create writes the cluster in the request (intent first): when the hub refuses part-way, the request answers the
// error and takes back what it wrote (the install-config and the inline credentials), leaves no Operation and no
// job, and the same request once the hub recovers creates the cluster with Secrets it owns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterDeployment, Secret } from '../../src/hive/types.js';
import type { JobView } from '../../src/services/ports.js';
import { createBody, HUB, prerequisites, runJob, simFaults, startBed, type Bed } from './support.js';

let bed: Bed;
const ns = 'cleanup';
const REFUSE_CD = {
  errors: [{ verb: 'create', resource: 'clusterdeployments', rate: 1, code: 503, retryAfterSeconds: 1 }],
};

const inline = (name: string) =>
  createBody(ns, name, {
    pullSecretRef: undefined,
    pullSecret: '{"auths":{"quay.io":{"auth":"c2VjcmV0"}}}',
    platform: { aws: { region: 'us-east-1', credentials: { accessKeyID: 'AKIA', secretAccessKey: 'hunter2' } } },
  });
const secret = (name: string) => bed.system.store.get<Secret>('Secret', { hub: HUB, namespace: ns, name });
const operationsFor = async (name: string) =>
  (
    await bed.system.store.list<{ metadata: { name: string }; spec: { target: { name: string } } }>('Operation', HUB, {
      namespace: 'beekeeper',
    })
  ).filter((o) => o.spec.target.name === name);

beforeAll(async () => {
  bed = await startBed();
  await prerequisites(bed, ns);
});
afterAll(async () => bed?.close());

describe('a create the hub refuses after the request wrote part of it', () => {
  it('answers 503 with Retry-After and leaves nothing it wrote: no Secrets, no Operation, no job; Secrets it did not write stay', async () => {
    await simFaults(bed, REFUSE_CD);
    let res;
    try {
      res = await bed.app.inject({ method: 'POST', url: '/v1/clusters', payload: inline('refused') });
    } finally {
      await simFaults(bed, {});
    }
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    for (const name of ['refused-install-config', 'refused-pull-secret', 'refused-aws-creds'])
      expect({ name, secret: await secret(name) }).toEqual({ name, secret: undefined });
    expect(await operationsFor('refused')).toEqual([]);
    expect(
      (await bed.system.queue.list({ type: 'cluster.create' })).filter((j) => j.target?.name === 'refused'),
    ).toEqual([]);
    // The Secrets other clusters refer to are not this create's.
    expect(await secret('aws-creds')).toBeDefined();
    expect(await secret('pull-secret')).toBeDefined();
  });

  it('the same request once the hub recovers creates the cluster, its Secrets owned by it, and its job follows the install', async () => {
    await simFaults(bed, REFUSE_CD);
    try {
      expect(
        (await bed.app.inject({ method: 'POST', url: '/v1/clusters', payload: inline('recovers') })).statusCode,
      ).toBe(503);
    } finally {
      await simFaults(bed, {});
    }
    const done: JobView = await runJob(bed.app, 'POST', '/v1/clusters', inline('recovers'));
    expect(done).toMatchObject({ state: 'completed', result: { installed: true } });
    const cd = await bed.system.store.get<ClusterDeployment>('ClusterDeployment', {
      hub: HUB,
      namespace: ns,
      name: 'recovers',
    });
    for (const name of ['recovers-install-config', 'recovers-pull-secret', 'recovers-aws-creds']) {
      expect((await secret(name))?.metadata.ownerReferences?.[0]).toMatchObject({
        kind: 'ClusterDeployment',
        uid: cd?.metadata.uid,
      });
    }
    expect((await operationsFor('recovers')).map((o) => o.metadata.name)).toEqual([done.id]);
  });
});
