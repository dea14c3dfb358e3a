// Bad input gets a clear 4xx naming the field, and nothing is created: no namespace, no Secret, no job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Secret } from '../../src/hive/types.js';
import { createBody, HUB, prerequisites, simFaults, startBed, type Bed } from './support.js';

let bed: Bed;
const ns = 'bad-input';

beforeAll(async () => {
  bed = await startBed();
  await prerequisites(bed, ns);
});
afterAll(async () => bed?.close());

async function post(payload: unknown) {
  const res = await bed.app.inject({ method: 'POST', url: '/v1/clusters', payload: payload as object });
  const body = res.json();
  return {
    status: res.statusCode,
    fields: ((body.errors ?? []) as Array<{ field: string }>).map((e) => e.field),
    body,
  };
}

async function nothingCreated(namespace: string, name: string) {
  const { store } = bed.system;
  expect(await store.get('ClusterDeployment', { hub: HUB, namespace, name })).toBeUndefined();
  expect(await store.get('Secret', { hub: HUB, namespace, name: `${name}-install-config` })).toBeUndefined();
  expect(await store.get('Secret', { hub: HUB, namespace, name: `${name}-pull-secret` })).toBeUndefined();
  expect(await store.get('Secret', { hub: HUB, namespace, name: `${name}-aws-creds` })).toBeUndefined();
  const jobs = await bed.system.queue.list({ type: 'cluster.create' });
  expect(jobs.filter((j) => j.target?.name === name)).toEqual([]);
}

describe('bad create requests', () => {
  it('a body of the wrong shape is 422 naming every field', async () => {
    const r = await post({
      ...createBody(ns, 'shape'),
      compute: { replicas: 'three' },
      surprise: true,
      hub: undefined,
    });
    expect(r.status).toBe(422);
    expect(r.fields).toEqual(expect.arrayContaining(['hub', 'compute.replicas', 'surprise']));
    await nothingCreated(ns, 'shape');
  });

  it('values Hive or Kubernetes would reject are 422 naming every field', async () => {
    const r = await post({
      ...createBody(ns, 'Not_A_DNS_Name'),
      platform: {
        aws: { region: 'us-east-1', credentialsSecretRef: 'aws-creds' },
        gcp: { region: 'x', projectID: 'p', credentialsSecretRef: 'g' },
      },
      hibernateAfter: '2d',
      releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64',
      controlPlane: { replicas: 2 },
      networking: { clusterNetwork: [{ cidr: 'ten/14', hostPrefix: 23 }] },
      labels: { 'bad key!': 'x' },
      sshKey: 'not a key',
    });
    expect(r.status).toBe(422);
    expect(r.fields).toEqual(
      expect.arrayContaining([
        'name',
        'platform',
        'hibernateAfter',
        'imageSet',
        'controlPlane.replicas',
        'networking.clusterNetwork[0].cidr',
        'labels.bad key!',
        'sshKey',
      ]),
    );
    expect(r.body.detail).toMatch(/no "d" unit/);
  });

  it("durations past what Go can hold are 422 naming the field, with Go's own message", async () => {
    const r = await post({
      ...createBody(ns, 'forever'),
      hibernateAfter: '99999999999999999h',
      expiresIn: '99999999999999999h',
    });
    expect(r.status).toBe(422);
    expect(r.fields).toEqual(expect.arrayContaining(['hibernateAfter', 'expiresIn']));
    expect(r.body.errors.find((e: { field: string }) => e.field === 'expiresIn').reason).toContain(
      'time: invalid duration "99999999999999999h"',
    );
    await nothingCreated(ns, 'forever');
  });

  it('references the hub does not have are 422 naming them; the namespace is not created', async () => {
    const r = await post({
      ...createBody('brand-new', 'orphan'),
      createNamespace: true,
      imageSet: 'openshift-v9.9.9',
      pullSecretRef: 'nope',
      pullSecret: undefined,
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: 'missing-creds' } },
      hibernateAfter: '1d',
    });
    expect(r.status).toBe(422);
    // Problems with the request and with what the hub lacks, all in one answer.
    expect(r.fields).toEqual(
      expect.arrayContaining(['hibernateAfter', 'imageSet', 'pullSecretRef', 'platform.aws.credentialsSecretRef']),
    );
    expect(await bed.system.store.get('Namespace', { hub: HUB, name: 'brand-new' })).toBeUndefined();
  });

  it('a missing namespace without createNamespace is 422 on namespace; inline secrets are not written', async () => {
    const r = await post({
      ...createBody('absent', 'lonely'),
      pullSecretRef: undefined,
      pullSecret: '{"auths":{}}',
      platform: { aws: { region: 'us-east-1', credentials: { accessKeyID: 'a', secretAccessKey: 'b' } } },
    });
    expect(r.status).toBe(422);
    expect(r.fields).toEqual(['namespace']);
    expect(r.body.detail).toMatch(/createNamespace/);
    expect(await bed.system.store.get('Namespace', { hub: HUB, name: 'absent' })).toBeUndefined();
  });

  it('an unknown hub is 422 on hub; an existing cluster is 409', async () => {
    const unknownHub = await post({ ...createBody(ns, 'where'), hub: 'mars' });
    expect(unknownHub.status).toBe(422);
    expect(unknownHub.fields).toEqual(['hub']);
    await nothingCreated(ns, 'where');

    await bed.system.store.create('ClusterDeployment', HUB, {
      metadata: { name: 'taken', namespace: ns },
      spec: {
        clusterName: 'taken',
        baseDomain: 'example.com',
        platform: { none: {} },
        provisioning: { installConfigSecretRef: { name: 'x' }, releaseImage: 'quay.io/a/b:1' },
      },
    });
    const dup = await post(createBody(ns, 'taken'));
    expect(dup.status).toBe(409);
    expect(
      await bed.system.store.get('Secret', { hub: HUB, namespace: ns, name: 'taken-install-config' }),
    ).toBeUndefined();
  });

  it("a Secret of the create's name that is not Beekeeper's refuses it (409) before anything is written, and stays as it was", async () => {
    const { store } = bed.system;
    const theirs = await store.create<Secret>('Secret', HUB, {
      metadata: { name: 'owned-aws-creds', namespace: ns },
      data: { aws_access_key_id: Buffer.from('THEIRS').toString('base64') },
    });
    const r = await post({
      ...createBody(ns, 'owned'),
      pullSecretRef: undefined,
      pullSecret: '{"auths":{}}',
      platform: { aws: { region: 'us-east-1', credentials: { accessKeyID: 'AKIA', secretAccessKey: 'hunter2' } } },
    });
    expect(r.status).toBe(409);
    expect(r.body.detail).toContain(`Secret ${ns}/owned-aws-creds already exists and is not Beekeeper's`);
    expect(await store.get('Secret', { hub: HUB, namespace: ns, name: 'owned-pull-secret' })).toBeUndefined();
    const after = await store.get<Secret>('Secret', { hub: HUB, namespace: ns, name: 'owned-aws-creds' });
    expect(after?.metadata).toMatchObject({
      uid: theirs.metadata.uid,
      resourceVersion: theirs.metadata.resourceVersion,
    });
    expect(after?.data).toEqual(theirs.data);
    expect((await bed.system.queue.list({ type: 'cluster.create' })).filter((j) => j.target?.name === 'owned')).toEqual(
      [],
    );
  });

  it('a create the hub fails part-way (503 on its Secret) answers 503 and leaves nothing, not even the namespace it made', async () => {
    await simFaults(bed, {
      errors: [{ verb: 'create', resource: 'secrets', rate: 1, code: 503, retryAfterSeconds: 1 }],
    });
    let r: Awaited<ReturnType<typeof post>>;
    try {
      r = await post({
        ...createBody('made-here', 'halfway'),
        createNamespace: true,
        pullSecretRef: undefined,
        pullSecret: '{"auths":{}}',
        platform: { aws: { region: 'us-east-1', credentials: { accessKeyID: 'AKIA', secretAccessKey: 'hunter2' } } },
      });
    } finally {
      await simFaults(bed, {});
    }
    expect(r.status, JSON.stringify(r.body)).toBe(503);
    const made = await bed.system.store.get('Namespace', { hub: HUB, name: 'made-here' });
    expect(made === undefined || made.metadata.deletionTimestamp !== undefined).toBe(true);
    await nothingCreated('made-here', 'halfway');
  });

  it('inline credentials are echoed nowhere in an error', async () => {
    const r = await post({
      ...createBody(ns, 'leaky'),
      pullSecretRef: undefined,
      pullSecret: 'not json but sup3r-s3cret',
      platform: {
        aws: { region: 'us-east-1', credentials: { accessKeyID: 'AKIA', secretAccessKey: 'hunter2-top-secret' } },
      },
      hibernateAfter: 'soon',
    });
    expect(r.status).toBe(422);
    expect(r.fields).toEqual(expect.arrayContaining(['pullSecret', 'hibernateAfter']));
    expect(JSON.stringify(r.body)).not.toMatch(/sup3r-s3cret|hunter2/);
    await nothingCreated(ns, 'leaky');
  });
});

describe('bad object paths', () => {
  // Uppercase, `:` or `_` can never name a hub, namespace or object, so the answer is 400 on that parameter, not a
  // 404 that suggests the object is merely missing.
  it('are 400 naming the parameter, on clusters, pools, claims and overrides alike', async () => {
    const cases: Array<[string, string, string]> = [
      ['GET', `/v1/clusters/East/${ns}/x`, 'hub'],
      ['GET', `/v1/clusters/ea:st/${ns}/x`, 'hub'],
      ['GET', `/v1/clusters/${HUB}/Bad-NS/x`, 'namespace'],
      ['GET', `/v1/clusters/${HUB}/${ns}/a:b`, 'name'],
      ['DELETE', `/v1/clusters/${HUB}/${ns}/Upper`, 'name'],
      ['PUT', `/v1/clusters/${HUB}/n.s/x/expiry`, 'namespace'],
      ['GET', `/v1/pools/${HUB}/${ns}/Pool_1`, 'name'],
      ['GET', `/v1/claims/HUB/${ns}/c`, 'hub'],
      ['POST', `/v1/clusters/${HUB}/${ns}/x_y/overrides`, 'name'],
    ];
    for (const [method, url, field] of cases) {
      const res = await bed.app.inject({
        method: method as 'GET',
        url,
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
      });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    // A well-formed name that does not exist is still 404.
    expect((await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${ns}/absent.one` })).statusCode).toBe(404);
  });
});
