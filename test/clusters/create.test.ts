// Create through the REST API and the real job queue: the job writes what Hive expects and follows the install.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { ClusterDeployment, Secret } from '../../src/hive/types.js';
import type { JobView, KubeObject } from '../../src/services/ports.js';
import { createBody, HUB, prerequisites, runJob, startBed, steps, type Bed } from './support.js';

let bed: Bed;
const ns = 'create-flow';
const decode = (s: Secret, key: string) => Buffer.from(s.data![key]!, 'base64').toString('utf8');

beforeAll(async () => {
  bed = await startBed();
  await prerequisites(bed, ns);
});
afterAll(async () => bed?.close());

describe('POST /v1/clusters', () => {
  it('creates the install-config Secret and the ClusterDeployment as Hive expects, then follows provisioning to installed', async () => {
    const job = await runJob(
      bed.app,
      'POST',
      '/v1/clusters',
      createBody(ns, 'alpha', {
        labels: { team: 'payments' },
        compute: { replicas: 2, instanceType: 'm6i.2xlarge' },
        sshKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB0 dev@example.com',
        hibernateAfter: '8h',
        expiresIn: '72h',
      }),
    );
    expect(job.state).toBe('completed');
    expect(job.type).toBe('cluster.create');
    expect(job.target).toMatchObject({ kind: 'ClusterDeployment', hub: HUB, namespace: ns, name: 'alpha' });
    expect(steps(job)).toEqual(
      expect.arrayContaining(['InstallConfigWritten', 'ClusterDeploymentCreated', 'Provisioning']),
    );
    expect(steps(job).indexOf('ClusterDeploymentCreated')).toBeLessThan(steps(job).indexOf('Provisioning'));
    expect(job.result).toMatchObject({ installed: true });

    const cd = (await bed.system.store.get<ClusterDeployment>('ClusterDeployment', {
      hub: HUB,
      namespace: ns,
      name: 'alpha',
    }))!;
    expect(cd.spec).toMatchObject({
      clusterName: 'alpha',
      baseDomain: 'example.com',
      platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
      pullSecretRef: { name: 'pull-secret' },
      provisioning: {
        installConfigSecretRef: { name: 'alpha-install-config' },
        imageSetRef: { name: 'openshift-v4.16.3' },
      },
      hibernateAfter: '8h',
      installed: true,
    });
    expect(cd.metadata.annotations?.['hive.openshift.io/delete-after']).toBe('72h');
    expect(cd.metadata.labels).toMatchObject({ team: 'payments' });

    const secret = (await bed.system.store.get<Secret>('Secret', {
      hub: HUB,
      namespace: ns,
      name: 'alpha-install-config',
    }))!;
    const ic = parse(decode(secret, 'install-config.yaml'));
    expect(ic).toMatchObject({
      apiVersion: 'v1',
      metadata: { name: 'alpha' },
      baseDomain: 'example.com',
      controlPlane: { name: 'master', replicas: 3, platform: { aws: { type: 'm6i.xlarge' } } },
      compute: [{ name: 'worker', replicas: 2, platform: { aws: { type: 'm6i.2xlarge' } } }],
      networking: {
        networkType: 'OVNKubernetes',
        clusterNetwork: [{ cidr: '10.128.0.0/14', hostPrefix: 23 }],
        serviceNetwork: ['172.30.0.0/16'],
      },
      platform: { aws: { region: 'us-east-1' } },
      sshKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB0 dev@example.com',
    });
    expect(ic.pullSecret).toBeUndefined(); // Hive merges it from pullSecretRef
    expect(secret.metadata.ownerReferences?.[0]).toMatchObject({
      kind: 'ClusterDeployment',
      name: 'alpha',
      uid: cd.metadata.uid,
    });

    const summary = await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${ns}/alpha` });
    expect(summary.statusCode).toBe(200);
    expect(summary.json()).toMatchObject({
      installed: true,
      platform: 'aws',
      region: 'us-east-1',
      expiry: { deleteAfter: '72h' },
      labels: { team: 'payments' },
    });
    expect(summary.json().apiURL).toMatch(/^https:\/\//);
    expect(summary.json().raw).toBeUndefined();
    const raw = await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${ns}/alpha?raw=true` });
    expect(raw.json().raw.metadata.uid).toBe(cd.metadata.uid);

    const events = await bed.system.store.list<KubeObject & { reason?: string; involvedObject?: { uid?: string } }>(
      'Event',
      HUB,
      { namespace: ns },
    );
    expect(events.some((e) => e.reason === 'ClusterCreated' && e.involvedObject?.uid === cd.metadata.uid)).toBe(true);
  });

  it('writes inline credentials during the request, and keeps them out of the job and its payload', async () => {
    const pullSecret = '{"auths":{"quay.io":{"auth":"c2VjcmV0LXB1bGw="}}}';
    const expiresAt = new Date(bed.clock.now() + 26 * 3_600_000 + 1234).toISOString();
    const res = await bed.app.inject({
      method: 'POST',
      url: '/v1/clusters?wait=60',
      payload: {
        ...createBody('inline-ns', 'beta', { createNamespace: true, pullSecret, pullSecretRef: undefined, expiresAt }),
        platform: {
          aws: {
            region: 'eu-west-1',
            credentials: { accessKeyID: 'AKIAEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI-very-secret' },
          },
        },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('very-secret');
    expect(res.body).not.toContain('c2VjcmV0LXB1bGw');
    const job = res.json<{ job: JobView }>().job;
    expect(job.state).toBe('completed');
    expect(steps(job)).toContain('NamespaceReady');

    const creds = (await bed.system.store.get<Secret>('Secret', {
      hub: HUB,
      namespace: 'inline-ns',
      name: 'beta-aws-creds',
    }))!;
    expect(decode(creds, 'aws_secret_access_key')).toBe('wJalrXUtnFEMI-very-secret');
    const pull = (await bed.system.store.get<Secret>('Secret', {
      hub: HUB,
      namespace: 'inline-ns',
      name: 'beta-pull-secret',
    }))!;
    expect(pull.type).toBe('kubernetes.io/dockerconfigjson');
    expect(decode(pull, '.dockerconfigjson')).toBe(pullSecret);
    const cd = (await bed.system.store.get<ClusterDeployment>('ClusterDeployment', {
      hub: HUB,
      namespace: 'inline-ns',
      name: 'beta',
    }))!;
    expect(cd.spec.pullSecretRef).toEqual({ name: 'beta-pull-secret' });
    expect(cd.spec.platform.aws?.credentialsSecretRef).toEqual({ name: 'beta-aws-creds' });
    // An absolute expiry becomes delete-after once the CD has its creationTimestamp, never before the time asked.
    const expiry = (await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/inline-ns/beta` })).json().expiry;
    expect(Date.parse(expiry.expiresAt) - Date.parse(expiresAt)).toBeGreaterThanOrEqual(0);
    expect(Date.parse(expiry.expiresAt) - Date.parse(expiresAt)).toBeLessThan(1000);
    expect(steps(job)).toContain('ExpirySet');

    const stored = await bed.app.inject({ method: 'GET', url: `/v1/jobs/${encodeURIComponent(job.id)}` });
    expect(stored.body).not.toContain('very-secret');
  });

  it('hands out the admin kubeconfig and credentials Hive stored, uncached', async () => {
    const kubeconfig = await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${ns}/alpha/kubeconfig` });
    expect(kubeconfig.statusCode).toBe(200);
    expect(kubeconfig.headers['content-type']).toMatch(/application\/yaml/);
    expect(kubeconfig.headers['cache-control']).toBe('no-store');
    expect(parse(kubeconfig.body)).toMatchObject({ kind: 'Config' });

    const creds = await bed.app.inject({ method: 'GET', url: `/v1/clusters/${HUB}/${ns}/alpha/credentials` });
    expect(creds.statusCode).toBe(200);
    expect(creds.json()).toMatchObject({ username: 'kubeadmin' });
    expect(creds.json().password).toBeTruthy();
  });

  it("fails the job with Hive's reason when Hive stops provisioning", async () => {
    const job = await runJob(
      bed.app,
      'POST',
      '/v1/clusters',
      createBody(ns, 'doomed', {
        installAttemptsLimit: 1,
        annotations: { 'sim.hive.openshift.io/install-failures': 'always' },
      }),
    );
    expect(job.state).toBe('failed');
    expect(job.error?.reason).toBe('InstallAttemptsLimitReached');
    expect(steps(job)).toContain('ProvisionStopped');
  });

  it('reports the hub reachable with Hive present, and its cache counts', async () => {
    const res = await bed.app.inject({ method: 'GET', url: '/v1/hubs' });
    expect(res.statusCode).toBe(200);
    const [hub] = res.json().items;
    expect(hub).toMatchObject({
      name: HUB,
      reachable: true,
      hiveCrdsPresent: true,
      informers: { ClusterDeployment: { synced: true } },
    });
    expect(hub.counts.ClusterDeployment).toBe(3);
  });

  it('lists clusters from the cache with filters and cursor paging', async () => {
    const all = await bed.app.inject({ method: 'GET', url: `/v1/clusters?hub=${HUB}&namespace=${ns}` });
    expect(all.json().items.map((c: { name: string }) => c.name)).toEqual(['alpha', 'doomed']);
    const team = await bed.app.inject({
      method: 'GET',
      url: `/v1/clusters?labelSelector=${encodeURIComponent('team=payments')}`,
    });
    expect(team.json().items.map((c: { name: string }) => c.name)).toEqual(['alpha']);
    const page1 = await bed.app.inject({ method: 'GET', url: '/v1/clusters?limit=1' });
    expect(page1.json().items).toHaveLength(1);
    expect(page1.json().total).toBe(3);
    const page2 = await bed.app.inject({
      method: 'GET',
      url: `/v1/clusters?limit=5&cursor=${page1.json().nextCursor}`,
    });
    expect(page2.json().items).toHaveLength(2);
    expect(page2.json().nextCursor).toBeUndefined();
    const stopped = await bed.app.inject({ method: 'GET', url: '/v1/clusters?powerState=ProvisionStopped' });
    expect(stopped.json().items.map((c: { name: string }) => c.name)).toEqual(['doomed']);
    const bad = await bed.app.inject({
      method: 'GET',
      url: `/v1/clusters?labelSelector=${encodeURIComponent('team in payments')}`,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors[0].field).toBe('labelSelector');
    // A power state or phase that does not exist is a typo to report, not a filter that matches nothing.
    const typo = await bed.app.inject({ method: 'GET', url: '/v1/clusters?powerState=hibernating' });
    expect(typo.statusCode).toBe(422);
    expect(typo.json().errors).toEqual([{ field: 'powerState', reason: expect.stringContaining('WaitingForNodes') }]);
    expect((await bed.app.inject({ method: 'GET', url: '/v1/clusters?powerState=WaitingForNodes' })).statusCode).toBe(
      200,
    );
  });
});
