// The upgrade of Beekeeper's own resources from v1alpha1 to v1beta1 (docs/upgrades.md), against the API server
// double: objects an old Beekeeper stored at v1alpha1, the new CRDs applied over them, the new Beekeeper reading
// them at v1beta1, `migrate-storage` rewriting them and setting storedVersions to [v1beta1], and the rollback.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createTestClock } from '../../src/clock.js';
import { buildCrd, GROUP, VERSION } from '../../src/hive/resources/crd.js';
import { BEEKEEPER_CRDS } from '../../src/hive/resources/index.js';
import { createKubeGateway, type KubeGateway } from '../../src/kube/gateway.js';
import { migrateStorage, migrationClient } from '../../src/kube/storage-migration.js';
import type { KubeObject } from '../../src/services/ports.js';
import { startApiServer, type ApiServer } from '../../src/sim/apiserver/index.js';
import { quietLog } from './support.js';
import { compiledMain } from '../support/compiled-src.js';

const run = promisify(execFile);
const NS = 'beekeeper';
const PLURALS = BEEKEEPER_CRDS.map((c) => c.plural);

/** The CRD as Beekeeper 0.1.0 shipped it: v1alpha1 alone, served and stored. */
function oldCrd(def: (typeof BEEKEEPER_CRDS)[number]): any {
  const crd = buildCrd(def) as any;
  const alpha = crd.spec.versions.find((v: any) => v.name === 'v1alpha1');
  const { deprecated, deprecationWarning, ...version } = alpha;
  crd.spec.versions = [{ ...version, storage: true }];
  delete crd.spec.conversion;
  return crd;
}

const SCHEDULE = {
  apiVersion: 'beekeeper.io/v1alpha1',
  kind: 'HibernationSchedule',
  metadata: { name: 'office-hours', namespace: NS },
  spec: {
    timeZone: 'Europe/Berlin',
    windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
    targets: { namespaces: ['fleet'] },
  },
};
const OPERATION = {
  apiVersion: 'beekeeper.io/v1alpha1',
  kind: 'Operation',
  metadata: { name: 'local.0b8e3c1e-old-request', namespace: NS },
  spec: {
    type: 'cluster.hibernate',
    target: { kind: 'ClusterDeployment', hub: 'local', namespace: 'fleet', name: 'b' },
    payload: { hub: 'local', namespace: 'fleet', name: 'b', target: 'Hibernating' },
    requestedAt: '2026-11-24T08:00:00Z',
  },
};

let server: ApiServer;
let kubeconfigPath: string;
let gw: KubeGateway | undefined;

async function kube(method: string, path: string, body?: unknown, contentType = 'application/json') {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${server.token}`,
      accept: 'application/json',
      ...(body === undefined ? {} : { 'content-type': contentType }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, warning: res.headers.get('warning'), body: (await res.json()) as any };
}
const crdPath = (plural: string) => `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${plural}.${GROUP}`;
const storedVersions = async () =>
  Object.fromEntries(
    await Promise.all(PLURALS.map(async (p) => [p, (await kube('GET', crdPath(p))).body.status.storedVersions])),
  );
const everyCrd = (versions: string[]) => Object.fromEntries(PLURALS.map((p) => [p, versions]));

/** `kubectl apply -f deploy/crds/` of this release's CRDs over the old ones. */
async function applyCrds(crds: any[]) {
  const answers = [];
  for (const crd of crds) {
    const current = (await kube('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`))
      .body;
    answers.push(
      await kube('PUT', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`, {
        ...crd,
        metadata: { ...crd.metadata, resourceVersion: current.metadata.resourceVersion },
      }),
    );
  }
  return answers;
}

let rvBefore: string;

beforeAll(async () => {
  server = await startApiServer({ crds: BEEKEEPER_CRDS.map(oldCrd) });
  const dir = mkdtempSync(join(tmpdir(), 'bk-crd-upgrade-'));
  kubeconfigPath = join(dir, 'hub.kubeconfig');
  writeFileSync(kubeconfigPath, stringify(server.kubeconfig('hub')));
  expect((await kube('POST', '/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
  // What Beekeeper 0.1.0 wrote, at the only version it knew.
  const schedule = await kube('POST', `/apis/${GROUP}/v1alpha1/namespaces/${NS}/hibernationschedules`, SCHEDULE);
  expect(schedule.status).toBe(201);
  rvBefore = schedule.body.metadata.resourceVersion;
  expect((await kube('POST', `/apis/${GROUP}/v1alpha1/namespaces/${NS}/operations`, OPERATION)).status).toBe(201);
  expect(await storedVersions()).toEqual(everyCrd(['v1alpha1']));
  for (const answer of await applyCrds(BEEKEEPER_CRDS.map(buildCrd))) expect(answer.status).toBe(200);
});

afterAll(async () => {
  await gw?.close();
  await server?.close();
});

describe('Beekeeper CRDs v1alpha1 -> v1beta1', () => {
  it('the new CRDs store v1beta1 and still record v1alpha1; the new Beekeeper reads the old objects as v1beta1', async () => {
    expect(await storedVersions()).toEqual(everyCrd(['v1alpha1', 'v1beta1']));
    gw = await createKubeGateway({
      hubs: [{ name: 'hub', kubeconfigData: stringify(server.kubeconfig('hub')) }],
      log: quietLog,
      clock: createTestClock(),
      cachedKinds: ['HibernationSchedule', 'Operation'],
    });
    const ref = { hub: 'hub', namespace: NS, name: 'office-hours' };
    const cached = await gw.waitFor<KubeObject & { spec: unknown }, KubeObject & { spec: unknown }>(
      'HibernationSchedule',
      ref,
      (o) => o,
      { timeoutMs: 10_000 },
    );
    expect(cached).toMatchObject({ apiVersion: 'beekeeper.io/v1beta1', spec: SCHEDULE.spec });
    expect(await gw.get('Operation', { ...ref, name: OPERATION.metadata.name })).toMatchObject({
      apiVersion: 'beekeeper.io/v1beta1',
      spec: OPERATION.spec,
    });
    // Discovery prefers v1beta1; v1alpha1 is served with a deprecation warning.
    expect((await kube('GET', `/apis/${GROUP}`)).body.preferredVersion.version).toBe('v1beta1');
    const old = await kube('GET', `/apis/${GROUP}/v1alpha1/namespaces/${NS}/hibernationschedules/office-hours`);
    expect(old.body.apiVersion).toBe('beekeeper.io/v1alpha1');
    expect(old.warning).toBe(
      '299 - "beekeeper.io/v1alpha1 HibernationSchedule is deprecated; use beekeeper.io/v1beta1 HibernationSchedule"',
    );
  });

  it('migrate-storage rewrites every object at v1beta1 and sets storedVersions to [v1beta1]; a second run writes nothing', async () => {
    const client = migrationClient({ name: 'hub', kubeconfig: kubeconfigPath });
    const dry = await migrateStorage({ rest: client, group: GROUP, version: VERSION, plurals: PLURALS, dryRun: true });
    expect(dry.reduce((n, r) => n + r.objects, 0)).toBe(2);
    expect(await storedVersions()).toEqual(everyCrd(['v1alpha1', 'v1beta1']));

    const { stdout } = await run(process.execPath, [
      ...compiledMain('migrate-storage'),
      '--kubeconfig',
      kubeconfigPath,
    ]);
    expect(stdout).toContain(
      'hibernationschedules.beekeeper.io: 1 objects, 1 rewritten, 0 changed meanwhile; storedVersions ["v1alpha1","v1beta1"] -> ["v1beta1"]',
    );
    expect(stdout).toContain('done: 6 CRDs, 2 objects, every one stored as beekeeper.io/v1beta1');
    expect(await storedVersions()).toEqual(everyCrd(['v1beta1']));
    const after = await kube('GET', `/apis/${GROUP}/${VERSION}/namespaces/${NS}/hibernationschedules/office-hours`);
    expect(Number(after.body.metadata.resourceVersion)).toBeGreaterThan(Number(rvBefore));
    expect(after.body.spec).toMatchObject(SCHEDULE.spec);

    const again = await migrateStorage({
      rest: client,
      group: GROUP,
      version: VERSION,
      plurals: PLURALS,
    });
    expect(again.map((r) => [r.objects, r.rewritten, r.storedVersionsAfter])).toEqual(
      PLURALS.map((p) => [['hibernationschedules', 'operations'].includes(p) ? 1 : 0, 0, ['v1beta1']]),
    );
    const unchanged = await kube('GET', `/apis/${GROUP}/${VERSION}/namespaces/${NS}/hibernationschedules/office-hours`);
    expect(unchanged.body.metadata.resourceVersion).toBe(after.body.metadata.resourceVersion);
  });

  it('after the migration an old Beekeeper still reads and writes v1alpha1 (rollback of the image); the old CRDs cannot be applied back', async () => {
    const patched = await kube(
      'PATCH',
      `/apis/${GROUP}/v1alpha1/namespaces/${NS}/hibernationschedules/office-hours`,
      { spec: { timeZone: 'Europe/Paris' } },
      'application/merge-patch+json',
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ apiVersion: 'beekeeper.io/v1alpha1', spec: { timeZone: 'Europe/Paris' } });
    expect(await storedVersions()).toEqual(everyCrd(['v1beta1']));
    // Its informer's watch at v1alpha1 sees the objects (stored at v1beta1) at v1alpha1, warned.
    const watch = await fetch(
      `${server.url}/apis/${GROUP}/v1alpha1/namespaces/${NS}/hibernationschedules?watch=true&timeoutSeconds=1`,
      {
        headers: { authorization: `Bearer ${server.token}` },
      },
    );
    expect(watch.headers.get('warning')).toContain('beekeeper.io/v1alpha1 HibernationSchedule is deprecated');
    const events = (await watch.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; object: any });
    expect(events.map((e) => [e.type, e.object.apiVersion, e.object.spec.timeZone])).toEqual([
      ['ADDED', 'beekeeper.io/v1alpha1', 'Europe/Paris'],
    ]);
    // The 0.1.0 CRD no longer lists a version objects are stored at: refused, nothing lost.
    const [refused] = await applyCrds([oldCrd(BEEKEEPER_CRDS.find((c) => c.plural === 'hibernationschedules')!)]);
    expect(refused!.status).toBe(422);
    expect(refused!.body.message).toContain('must appear in spec.versions');
  });

  it('refuses to migrate while a CRD still stores the old version, naming the step that is missing', async () => {
    const fresh = await startApiServer({ crds: BEEKEEPER_CRDS.map(oldCrd) });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'bk-crd-upgrade-'));
      const path = join(dir, 'old.kubeconfig');
      writeFileSync(path, stringify(fresh.kubeconfig('old')));
      await expect(
        migrateStorage({
          rest: migrationClient({ name: 'old', kubeconfig: path }),
          group: GROUP,
          version: VERSION,
          plurals: PLURALS,
        }),
      ).rejects.toThrow(/stores v1alpha1, not v1beta1: apply this release's CRDs first/);
    } finally {
      await fresh.close();
    }
  });
});
