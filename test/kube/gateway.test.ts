// The Kubernetes gateway against the API server double over HTTP (no Hive controllers, so only the test writes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClock } from '../../src/clock.js';
import { Conflict, Forbidden, Invalid, NotFound, Unavailable } from '../../src/hive/errors.js';
import type { ClusterDeployment } from '../../src/hive/types.js';
import { createKubeGateway, type KubeGateway } from '../../src/kube/gateway.js';
import type { KubeObject } from '../../src/services/ports.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { cd, quietLog } from './support.js';

let sim: Simulator;
let gw: KubeGateway;
const clock = createTestClock();
const HUB = 'east';
const ns = 'team-a';

beforeAll(async () => {
  sim = await startSimulator({ hubNames: [HUB], controllers: false, clock });
  gw = await createKubeGateway({
    hubs: [{ name: HUB, kubeconfigData: sim.kubeconfigYaml(), context: HUB }],
    log: quietLog,
    clock,
    cachedKinds: ['ClusterDeployment', 'ClusterImageSet'],
  });
  await gw.create('Namespace', HUB, { metadata: { name: ns } });
});

afterAll(async () => {
  await gw?.close();
  await sim?.close();
});

describe('cached reads', () => {
  it('sees an object created live in its cache once the watch delivers it, with kind filled in', async () => {
    const created = await gw.create('ClusterDeployment', HUB, cd('c1', ns, {}, { team: 'a' }));
    const seen = await gw.waitFor<ClusterDeployment, ClusterDeployment>(
      'ClusterDeployment',
      { hub: HUB, namespace: ns, name: 'c1' },
      (o) => o,
      { timeoutMs: 5000 },
    );
    expect(seen.metadata.uid).toBe(created.metadata.uid);
    expect(seen.kind).toBe('ClusterDeployment');
    expect(gw.cached('ClusterDeployment', { hub: HUB, namespace: ns, name: 'c1' })?.metadata.uid).toBe(
      created.metadata.uid,
    );
  });

  it('filters cached lists by hub, namespace and label selector', async () => {
    await gw.create('ClusterDeployment', HUB, cd('c2', ns, {}, { team: 'b' }));
    await gw.waitFor('ClusterDeployment', { hub: HUB, namespace: ns, name: 'c2' }, (o) => o, { timeoutMs: 5000 });
    const names = (sel: string) =>
      gw
        .cachedList('ClusterDeployment', { hub: HUB, namespace: ns, labelSelector: sel })
        .map((r) => r.object.metadata.name)
        .sort();
    expect(names('team=a')).toEqual(['c1']);
    expect(names('team in (a,b)')).toEqual(['c1', 'c2']);
    expect(names('team!=a')).toEqual(['c2']);
    expect(gw.cachedList('ClusterDeployment', { namespace: 'elsewhere' })).toEqual([]);
    expect(() => gw.cachedList('ClusterDeployment', { labelSelector: 'team in a' })).toThrow(Invalid);
  });

  it('reads cluster-scoped kinds without a namespace', async () => {
    await gw.create('ClusterImageSet', HUB, {
      metadata: { name: 'ocp-4.16' },
      spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.0-x86_64' },
    });
    const got = await gw.waitFor('ClusterImageSet', { hub: HUB, name: 'ocp-4.16' }, (o) => o, { timeoutMs: 5000 });
    expect(got.metadata.name).toBe('ocp-4.16');
  });
});

describe('waitFor', () => {
  it('is woken by the watch event of a later change, not by polling', async () => {
    const ref = { hub: HUB, namespace: ns, name: 'c1' };
    const seen: string[] = [];
    const waiting = gw.waitFor<ClusterDeployment, string>(
      'ClusterDeployment',
      ref,
      (o) => {
        seen.push(o?.spec.powerState ?? '-');
        return o?.spec.powerState === 'Hibernating' ? 'done' : undefined;
      },
      { timeoutMs: 5000 },
    );
    expect(seen).toEqual(['-']); // evaluated once at once
    await gw.mergePatch('ClusterDeployment', ref, { spec: { powerState: 'Hibernating' } });
    await expect(waiting).resolves.toBe('done');
    expect(seen).toEqual(['-', 'Hibernating']);
  });

  it('resolves with undefined-aware tests when the object is deleted', async () => {
    await gw.create('ClusterDeployment', HUB, cd('doomed', ns));
    const ref = { hub: HUB, namespace: ns, name: 'doomed' };
    await gw.waitFor('ClusterDeployment', ref, (o) => o, { timeoutMs: 5000 });
    const gone = gw.waitFor('ClusterDeployment', ref, (o) => (o ? undefined : 'gone'), { timeoutMs: 5000 });
    await gw.delete('ClusterDeployment', ref);
    await expect(gone).resolves.toBe('gone');
  });

  it('times out on the injected clock with Unavailable', async () => {
    const waiting = gw.waitFor('ClusterDeployment', { hub: HUB, namespace: ns, name: 'never' }, (o) => o, {
      timeoutMs: 3_600_000,
    });
    clock.advance(3_600_001);
    await expect(waiting).rejects.toBeInstanceOf(Unavailable);
  });

  it('ends with the error a test throws', async () => {
    const boom = new Invalid('nope');
    await expect(
      gw.waitFor(
        'ClusterDeployment',
        { hub: HUB, namespace: ns, name: 'c1' },
        () => {
          throw boom;
        },
        { timeoutMs: 1000 },
      ),
    ).rejects.toBe(boom);
  });

  it('reports every change of a kind to onChange listeners', async () => {
    const events: string[] = [];
    const off = gw.onChange<KubeObject>('ClusterDeployment', (hub, type, obj) =>
      events.push(`${hub}:${type}:${obj.metadata.name}`),
    );
    await gw.create('ClusterDeployment', HUB, cd('watched', ns));
    await gw.waitFor('ClusterDeployment', { hub: HUB, namespace: ns, name: 'watched' }, (o) => o, { timeoutMs: 5000 });
    off();
    expect(events).toContain(`${HUB}:ADDED:watched`);
  });
});

describe('live writes', () => {
  it('replaces with the current resourceVersion, patches status through the subresource, and dry-runs without storing', async () => {
    const ref = { hub: HUB, namespace: ns, name: 'c2' };
    const live = (await gw.get<ClusterDeployment>('ClusterDeployment', ref))!;
    const replaced = await gw.replace<ClusterDeployment>('ClusterDeployment', ref, {
      ...live,
      spec: { ...live.spec, hibernateAfter: '4h' },
    });
    expect(replaced.spec.hibernateAfter).toBe('4h');
    await expect(gw.replace('ClusterDeployment', ref, live)).rejects.toBeInstanceOf(Conflict); // stale resourceVersion

    const patched = await gw.mergePatch<ClusterDeployment>(
      'ClusterDeployment',
      ref,
      { status: { powerState: 'Hibernating' } },
      { subresource: 'status' },
    );
    expect(patched.status?.powerState).toBe('Hibernating');
    expect(patched.spec.hibernateAfter).toBe('4h');

    await gw.create('ClusterDeployment', HUB, cd('dry', ns), { dryRun: true });
    expect(await gw.get('ClusterDeployment', { hub: HUB, namespace: ns, name: 'dry' })).toBeUndefined();
    const listed = await gw.list<ClusterDeployment>('ClusterDeployment', HUB, {
      namespace: ns,
      labelSelector: 'team=b',
    });
    expect(listed.map((o) => [o.metadata.name, o.kind])).toEqual([['c2', 'ClusterDeployment']]);
  });
});

describe('errors become domain errors', () => {
  const ref = { hub: HUB, namespace: ns, name: 'c1' };

  it('a missing object reads as undefined; writes to it are NotFound', async () => {
    expect(await gw.get('ClusterDeployment', { hub: HUB, namespace: ns, name: 'missing' })).toBeUndefined();
    await expect(
      gw.mergePatch('ClusterDeployment', { hub: HUB, namespace: ns, name: 'missing' }, { spec: {} }),
    ).rejects.toBeInstanceOf(NotFound);
  });

  it('AlreadyExists and stale resourceVersions are Conflict', async () => {
    await expect(gw.create('ClusterDeployment', HUB, cd('c1', ns))).rejects.toBeInstanceOf(Conflict);
    await expect(
      gw.mergePatch('ClusterDeployment', ref, { spec: { powerState: 'Running' } }, { resourceVersion: '1' }),
    ).rejects.toBeInstanceOf(Conflict);
  });

  it('schema violations are Invalid with the fields Kubernetes named', async () => {
    const err = await gw
      .create('ClusterDeployment', HUB, {
        ...cd('bad', ns),
        spec: { ...cd('bad', ns).spec, powerState: 'Bogus' as never },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Invalid);
    expect((err as Invalid).fields.map((f) => f.field)).toContain('spec.powerState');
  });

  it('a delete precondition on a different uid is Conflict and deletes nothing', async () => {
    await expect(
      gw.delete('ClusterDeployment', ref, { uid: '00000000-0000-0000-0000-000000000000' }),
    ).rejects.toBeInstanceOf(Conflict);
    expect(await gw.get('ClusterDeployment', ref)).toBeDefined();
  });

  it('429 and 5xx are Unavailable with Retry-After', async () => {
    sim.hubs[0]!.server.faults.set({
      errors: [{ verb: 'get', resource: 'clusterdeployments', rate: 1, code: 429, retryAfterSeconds: 7 }],
    });
    try {
      const err = await gw.get('ClusterDeployment', ref).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Unavailable);
      expect((err as Unavailable).retryAfterSeconds).toBe(7);
    } finally {
      sim.hubs[0]!.server.faults.clear();
    }
  });

  it('a wrong token is Forbidden; an unknown hub is NotFound', async () => {
    const bad = await createKubeGateway({
      hubs: [
        {
          name: 'wrong',
          kubeconfigData: sim.kubeconfigYaml().replace(sim.hubs[0]!.token, 'not-the-token'),
          context: HUB,
        },
      ],
      log: quietLog,
      clock,
      cachedKinds: [],
    });
    try {
      await expect(bad.get('ClusterDeployment', { hub: 'wrong', namespace: ns, name: 'c1' })).rejects.toBeInstanceOf(
        Forbidden,
      );
      await expect(bad.get('ClusterDeployment', { hub: 'nowhere', namespace: ns, name: 'c1' })).rejects.toBeInstanceOf(
        NotFound,
      );
    } finally {
      await bad.close();
    }
  });
});

describe('events', () => {
  it('records a core/v1 Event on the object with Beekeeper as the source', async () => {
    const ref = { hub: HUB, namespace: ns, name: 'c1' };
    await gw.recordEvent('ClusterDeployment', ref, {
      type: 'Normal',
      reason: 'HibernateRequested',
      message: 'because the test said so',
      action: 'Hibernate',
    });
    const events = await gw.list<KubeObject & Record<string, any>>('Event', HUB, { namespace: ns });
    const ev = events.find((e) => e.reason === 'HibernateRequested');
    expect(ev).toBeDefined();
    expect(ev!.involvedObject).toMatchObject({
      kind: 'ClusterDeployment',
      name: 'c1',
      namespace: ns,
      uid: gw.cached('ClusterDeployment', ref)!.metadata.uid,
    });
    expect(ev!.source).toMatchObject({ component: 'beekeeper' });
    expect(ev!.reportingComponent).toBe('beekeeper');
    expect(ev!.count).toBe(1);
    expect(ev!.metadata.name).toMatch(/^c1\.[0-9a-f]+$/);
  });
});
