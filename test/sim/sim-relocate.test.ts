import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { R, createKubeClient, type KubeClient } from '../../src/sim/client/index.js';
import { awsClusterDeployment, condition, createPrerequisites, waitFor } from './sim-helpers.js';

describe('simulated ClusterRelocate between two hubs', () => {
  let sim: Simulator;
  let source: KubeClient;
  let dest: KubeClient;
  beforeAll(async () => {
    sim = await startSimulator({ hubs: 2, speed: 5000 });
    [source, dest] = sim.hubs.map((h) => createKubeClient({ server: h.url, token: h.token })) as [
      KubeClient,
      KubeClient,
    ];
    await createPrerequisites(source, 'team');
    await createPrerequisites(dest, 'other');
    const hub2 = sim.hubs[1]!.server.kubeconfig('hub-2');
    await source.create(R.secret, {
      metadata: { name: 'hub-2-kubeconfig', namespace: 'team' },
      data: { kubeconfig: Buffer.from(toYaml(hub2)).toString('base64') },
    });
  });
  afterAll(() => sim?.close());

  it('moves a cluster with its Secrets to the other hub and removes the source without deprovisioning', async () => {
    await source.create(R.clusterDeployment, awsClusterDeployment('team', 'mover', { labels: { move: 'yes' } }));
    const before = (await waitFor(
      source,
      R.clusterDeployment,
      'team',
      'mover',
      (o) => o?.status?.powerState === 'Running',
    ))!;
    const annotations: string[] = [];
    const watch = source.watch(R.clusterDeployment, 'team', {
      onEvent: (_t, o) => {
        const a = o.metadata.annotations?.['hive.openshift.io/relocate'];
        if (o.metadata.name === 'mover' && a && annotations.at(-1) !== a) annotations.push(a);
      },
      onGone() {},
    });

    await source.create(R.clusterRelocate, {
      metadata: { name: 'to-hub-2', namespace: 'team' },
      spec: {
        kubeconfigSecretRef: { namespace: 'team', name: 'hub-2-kubeconfig' },
        clusterDeploymentSelector: { matchLabels: { move: 'yes' } },
      },
    });

    await waitFor(source, R.clusterDeployment, 'team', 'mover', (o) => o === undefined);
    watch.stop();
    expect(annotations).toEqual(['to-hub-2/outgoing', 'to-hub-2/complete']);
    expect(await source.tryGet(R.clusterDeprovision, 'team', 'mover')).toBeUndefined();

    const moved = (await waitFor(
      dest,
      R.clusterDeployment,
      'team',
      'mover',
      (o) =>
        Boolean(o) && !o!.metadata.annotations?.['hive.openshift.io/relocate'] && o!.status?.powerState === 'Running',
    ))!;
    expect(moved.spec.installed).toBe(true);
    expect(moved.spec.clusterMetadata).toEqual(before.spec.clusterMetadata);
    expect(moved.metadata.uid).not.toBe(before.metadata.uid);
    const secrets = (await dest.list(R.secret, 'team')).items.map((s) => s.metadata.name);
    expect(secrets).toEqual(
      expect.arrayContaining([
        before.spec.clusterMetadata.adminKubeconfigSecretRef.name,
        before.spec.clusterMetadata.adminPasswordSecretRef.name,
        'mover-metadata-json',
        'aws-creds',
        'pull-secret',
        'install-config',
      ]),
    );
  });

  it('refuses to move when two ClusterRelocates match', async () => {
    await source.create(R.clusterDeployment, awsClusterDeployment('team', 'torn', { labels: { torn: 'yes' } }));
    for (const name of ['a', 'b']) {
      await source.create(R.clusterRelocate, {
        metadata: { name: `torn-${name}`, namespace: 'team' },
        spec: {
          kubeconfigSecretRef: { namespace: 'team', name: 'hub-2-kubeconfig' },
          clusterDeploymentSelector: { matchLabels: { torn: 'yes' } },
        },
      });
    }
    const cd = await waitFor(
      source,
      R.clusterDeployment,
      'team',
      'torn',
      (o) => condition(o, 'RelocationFailed')?.reason === 'MultipleMatchingRelocates',
    );
    expect(condition(cd, 'RelocationFailed')).toMatchObject({
      status: 'True',
      message: 'multiple ClusterRelocates match: torn-a, torn-b',
    });
    expect(cd!.metadata.annotations?.['hive.openshift.io/relocate']).toBeUndefined();
  });

  it('reports a missing kubeconfig Secret', async () => {
    await source.create(R.clusterDeployment, awsClusterDeployment('team', 'lost', { labels: { lost: 'yes' } }));
    await source.create(R.clusterRelocate, {
      metadata: { name: 'nowhere', namespace: 'team' },
      spec: {
        kubeconfigSecretRef: { namespace: 'team', name: 'missing' },
        clusterDeploymentSelector: { matchLabels: { lost: 'yes' } },
      },
    });
    const cd = await waitFor(
      source,
      R.clusterDeployment,
      'team',
      'lost',
      (o) => condition(o, 'RelocationFailed')?.reason === 'MissingKubeconfigSecret',
    );
    expect(condition(cd, 'RelocationFailed')).toMatchObject({
      status: 'True',
      message: 'missing kubeconfig secret for destination cluster: secrets "missing" not found',
    });
  });

  it('refuses to overwrite a different cluster of the same name on the destination (ClusterDeploymentMismatch)', async () => {
    // After the first test the destination has namespace `team` with the Secrets a CD needs.
    const other = awsClusterDeployment('team', 'twin');
    other.spec.baseDomain = 'elsewhere.example.com';
    await dest.create(R.clusterDeployment, other);
    await source.create(R.clusterDeployment, awsClusterDeployment('team', 'twin', { labels: { twin: 'yes' } }));
    await source.create(R.clusterRelocate, {
      metadata: { name: 'twin-to-hub-2', namespace: 'team' },
      spec: {
        kubeconfigSecretRef: { namespace: 'team', name: 'hub-2-kubeconfig' },
        clusterDeploymentSelector: { matchLabels: { twin: 'yes' } },
      },
    });
    const cd = await waitFor(
      source,
      R.clusterDeployment,
      'team',
      'twin',
      (o) => condition(o, 'RelocationFailed')?.reason === 'ClusterDeploymentMismatch',
    );
    expect(condition(cd, 'RelocationFailed')).toMatchObject({
      status: 'True',
      message:
        'The ClusterDeployment in the destination cluster does not match the one being relocated. To relocate this ' +
        'ClusterDeployment, the ClusterDeployment in the destination cluster first must be deleted.',
    });
    expect(cd!.metadata.annotations?.['hive.openshift.io/relocate']).toBeUndefined();
  });

  describe("Hive's relocation metrics at /_sim/metrics", () => {
    const metrics = async (hub = 0, token = sim.hubs[hub]!.token) => {
      const res = await fetch(`${sim.hubs[hub]!.url}/_sim/metrics`, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
    };
    const sample = (text: string, series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : 0;
    };
    const aborted = (text: string, relocate: string, reason: string) =>
      sample(text, `hive_aborted_cluster_relocations{cluster_relocate="${relocate}",reason="${reason}"}`);
    /**
     * The abort counted for `relocate`, or (as upstream) under `cluster_relocate=""` when the pass that cleared the
     * annotation lost its status write to a conflict and the retry no longer saw a move under way. The controller
     * counts right after its write answers, so a watcher may see the write first: wait for the count.
     */
    const countedAbort = async (relocate: string, reason: string) => {
      const end = Date.now() + 5000;
      for (;;) {
        const { text } = await metrics();
        const named = aborted(text, relocate, reason);
        if (named + aborted(text, '', reason) > 0 || Date.now() > end) return { text, named };
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const relocateTo = (name: string, selector: Record<string, string>) =>
      source.create(R.clusterRelocate, {
        metadata: { name, namespace: 'team' },
        spec: {
          kubeconfigSecretRef: { namespace: 'team', name: 'hub-2-kubeconfig' },
          clusterDeploymentSelector: { matchLabels: selector },
        },
      });
    const relocateOf = (o: { metadata: { annotations?: Record<string, string> } } | undefined) =>
      o?.metadata.annotations?.['hive.openshift.io/relocate'];
    /** A CD that Hive holds at `<relocate>/outgoing`: creating ClusterDeployments on hub-2 fails (MoveFailed). */
    const heldOutgoing = async (name: string, labels: Record<string, string>, relocate: string) => {
      await source.create(R.clusterDeployment, awsClusterDeployment('team', name, { labels }));
      await relocateTo(relocate, labels);
      return waitFor(
        source,
        R.clusterDeployment,
        'team',
        name,
        (o) => relocateOf(o) === `${relocate}/outgoing` && condition(o, 'RelocationFailed')?.reason === 'MoveFailed',
      );
    };
    beforeAll(() => {
      sim.hubs[1]!.server.faults.set({
        errors: [{ verb: 'create', resource: 'clusterdeployments', rate: 1, code: 500 }],
      });
    });
    afterAll(() => sim.hubs[1]!.server.faults.clear());

    it('counts the completed move per ClusterRelocate, in the Prometheus text format, for the admin token only', async () => {
      const m = await metrics();
      expect(m.status).toBe(200);
      expect(m.type).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(m.text).toContain('# HELP hive_cluster_relocations Total number of successful cluster relocations.\n');
      expect(m.text).toContain('# TYPE hive_cluster_relocations counter\n');
      expect(sample(m.text, 'hive_cluster_relocations{cluster_relocate="to-hub-2"}')).toBe(1);
      expect(m.text).toContain('# TYPE hive_aborted_cluster_relocations counter\n');
      // The destination hub counts no move of its own.
      expect((await metrics(1)).text).not.toContain('hive_cluster_relocations{');
      expect((await metrics(0, 'not-a-token')).status).toBe(401);
    });

    it('no_match: the label removed mid-move aborts it, counted once for that ClusterRelocate', async () => {
      const held = (await heldOutgoing('nm', { nm: 'yes' }, 'nm-rel'))!;
      expect(aborted((await metrics()).text, 'nm-rel', 'no_match')).toBe(0);
      await source.update(R.clusterDeployment, { ...held, metadata: { ...held.metadata, labels: {} } });
      const cd = await waitFor(source, R.clusterDeployment, 'team', 'nm', (o) => relocateOf(o) === undefined);
      await waitFor(
        source,
        R.clusterDeployment,
        'team',
        'nm',
        (o) => condition(o, 'RelocationFailed')?.reason === 'NoMatchingRelocates',
      );
      expect(cd!.metadata.deletionTimestamp).toBeUndefined();
      const { text, named } = await countedAbort('nm-rel', 'no_match');
      expect(named + aborted(text, '', 'no_match')).toBeGreaterThanOrEqual(1);
      expect(named).toBeLessThanOrEqual(1);
      expect(aborted(text, 'nm-rel', 'multiple_matches')).toBe(0);
      expect(aborted(text, 'nm-rel', 'new_match')).toBe(0);
      expect(sample(text, 'hive_cluster_relocations{cluster_relocate="nm-rel"}')).toBe(0);
      expect(await dest.tryGet(R.clusterDeployment, 'team', 'nm')).toBeUndefined();
    });

    it('multiple_matches: a second matching ClusterRelocate aborts the move, counted once', async () => {
      await heldOutgoing('mm', { mm: 'yes' }, 'mm-first');
      await relocateTo('mm-second', { mm: 'yes' });
      const cd = await waitFor(
        source,
        R.clusterDeployment,
        'team',
        'mm',
        (o) => condition(o, 'RelocationFailed')?.reason === 'MultipleMatchingRelocates',
      );
      expect(relocateOf(cd)).toBeUndefined();
      expect(condition(cd, 'RelocationFailed')?.message).toBe('multiple ClusterRelocates match: mm-first, mm-second');
      const { text, named } = await countedAbort('mm-first', 'multiple_matches');
      expect(named + aborted(text, '', 'multiple_matches')).toBeGreaterThanOrEqual(1);
      expect(named).toBeLessThanOrEqual(1);
      expect(aborted(text, 'mm-first', 'no_match')).toBe(0);
    });

    it('new_match: relabelled to match another ClusterRelocate, the old move is aborted (counted once) and the new one starts', async () => {
      const held = (await heldOutgoing('nw', { nw: 'a' }, 'nw-a'))!;
      await relocateTo('nw-b', { nw: 'b' });
      await source.update(R.clusterDeployment, { ...held, metadata: { ...held.metadata, labels: { nw: 'b' } } });
      await waitFor(source, R.clusterDeployment, 'team', 'nw', (o) => relocateOf(o) === 'nw-b/outgoing');
      const { text } = await countedAbort('nw-a', 'new_match');
      expect(aborted(text, 'nw-a', 'new_match')).toBe(1);
      expect(aborted(text, 'nw-a', 'no_match')).toBe(0);
      expect(aborted(text, 'nw-b', 'new_match')).toBe(0);
    });

    it('deleting a CD mid-move aborts it without counting a reason (as upstream)', async () => {
      await heldOutgoing('gone', { gone: 'yes' }, 'gone-rel');
      await source.delete(R.clusterDeployment, 'team', 'gone');
      await waitFor(source, R.clusterDeployment, 'team', 'gone', (o) => !o || relocateOf(o) === undefined);
      expect((await metrics()).text).not.toContain('cluster_relocate="gone-rel"');
    });
  });
});
