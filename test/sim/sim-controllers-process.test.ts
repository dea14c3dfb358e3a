// The simulated Hive controllers must survive what Hive's controllers survive: an API server restart (run as a
// separate process, the way the field trial ran them) and their own restart against a hub full of clusters.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../../src/sim/apiserver/index.js';
import { hiveAdmission } from '../../src/sim/admission/index.js';
import { hiveCrds } from '../../src/sim/crds/index.js';
import { createTestClock } from '../../src/clock.js';
import { R, createKubeClient, type KubeClient, type KubeObject } from '../../src/sim/client/index.js';
import { resolveDurations } from '../../src/sim/durations.js';
import { startHiveControllers } from '../../src/sim/hive/index.js';
import { awsClusterDeployment, awsPool, createPrerequisites, waitFor, waitForAll } from './sim-helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'controllers-process-test-token';

interface Controllers {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Resolves with the first stderr line matching `pattern`, or rejects if the process exits first. */
  logged(pattern: RegExp): Promise<string>;
  stderr(): string;
}

function runControllers(kubeconfigPath: string): Controllers {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'test/sim/run-hive-controllers.ts'), kubeconfigPath, '2000'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const logged = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = stderr.split('\n').find((l) => pattern.test(l));
        if (line === undefined) return;
        child.stderr.off('data', check);
        resolve(line);
      };
      child.stderr.on('data', check);
      check();
      void exited.then((code) =>
        reject(new Error(`the controllers' process exited with code ${code}:\n${stderr.slice(-2000)}`)),
      );
    });
  return { child, exited, logged, stderr: () => stderr };
}

const synced = (c: Controllers) =>
  new Promise<void>((resolve, reject) => {
    c.child.stdout!.on('data', (d) => String(d).includes('synced') && resolve());
    void c.exited.then((code) => reject(new Error(`exited ${code} before syncing:\n${c.stderr()}`)));
  });

const installed = (client: KubeClient, ns: string, name: string) =>
  waitFor(client, R.clusterDeployment, ns, name, (cd) => cd?.spec?.installed === true);

const hubOptions = (extra: ApiServerOptions = {}): ApiServerOptions => ({
  crds: hiveCrds(),
  admission: hiveAdmission,
  token: TOKEN,
  ...extra,
});

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

describe('simulated Hive controllers in their own process', () => {
  it('keep running while the API server restarts on the same port, and reconcile what is created afterwards', async () => {
    let server: ApiServer = await startApiServer(hubOptions());
    cleanup.push(() => server.close());
    const port = Number(new URL(server.url).port);
    const client = createKubeClient({ server: server.url, token: TOKEN });
    await client.create(R.hiveConfig, { metadata: { name: 'hive' }, spec: {} });
    await createPrerequisites(client, 'team-a');
    const dir = mkdtempSync(join(tmpdir(), 'bk-controllers-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const kubeconfigPath = join(dir, 'hub.kubeconfig');
    writeFileSync(kubeconfigPath, toYaml(server.kubeconfig('hub')), { mode: 0o600 });

    const controllers = runControllers(kubeconfigPath);
    cleanup.push(() => controllers.child.exitCode === null && controllers.child.kill('SIGKILL'));
    await synced(controllers);
    await client.create(R.clusterDeployment, awsClusterDeployment('team-a', 'before'));
    await installed(client, 'team-a', 'before');

    // The API server goes away: the controllers notice and keep trying, as client-go's reflectors do.
    await server.close();
    await controllers.logged(/"msg":"list or watch failed; retrying"/);
    server = await startApiServer(hubOptions({ port, store: server.store }));

    await client.create(R.clusterDeployment, awsClusterDeployment('team-a', 'after'));
    const cd = await Promise.race([
      installed(client, 'team-a', 'after'),
      controllers.exited.then((code) => {
        throw new Error(`the controllers' process exited with code ${code}:\n${controllers.stderr().slice(-2000)}`);
      }),
    ]);
    expect(cd?.status?.installedTimestamp).toEqual(expect.any(String));
    expect(controllers.child.exitCode).toBeNull();

    controllers.child.kill('SIGTERM');
    expect(await controllers.exited).toBe(0);
  }, 60_000);
});

/** The real client, noting in `seen` each list as it is answered and each write as it is sent. */
function recordingClient(client: KubeClient, seen: string[]): KubeClient {
  const write =
    (verb: string, fn: (r: any, ...rest: any[]) => Promise<unknown>) =>
    (r: { plural: string }, ...rest: unknown[]) => {
      seen.push(`${verb} ${r.plural}`);
      return fn(r, ...rest);
    };
  return {
    ...client,
    async list(r, ns, opts) {
      const list = await client.list(r, ns, opts);
      seen.push(`listed ${r.plural}`);
      return list;
    },
    create: write('create', client.create),
    update: write('update', client.update),
    updateStatus: write('update', client.updateStatus),
    mergePatch: write('patch', client.mergePatch),
    delete: write('delete', client.delete),
  } as KubeClient;
}

describe('simulated Hive controllers restarting against a hub with installed pool clusters', () => {
  it('wait for every informer to sync before acting, so no pool namespace is deleted and no cluster is added', async () => {
    const clock = createTestClock();
    const server = await startApiServer({ ...hubOptions(), clock });
    cleanup.push(() => server.close());
    const client = createKubeClient({ server: server.url, token: TOKEN });
    await client.create(R.hiveConfig, { metadata: { name: 'hive' }, spec: {} });
    await createPrerequisites(client, 'pools');
    await client.create(R.clusterPool, awsPool('pools', 'small', { size: 2 }));
    const start = (c: KubeClient) =>
      startHiveControllers({
        hub: 'hub',
        client: c,
        clock,
        durations: resolveDurations({}, 2000),
        log: () => {},
        options: { deleteProtection: false, installFailures: 0 },
      });
    const first = start(client);
    cleanup.push(() => first.close());
    const installedCds = await waitForAll(
      client,
      R.clusterDeployment,
      (cds) => cds.length === 2 && cds.every((cd) => cd.spec.installed),
    );
    await first.close();
    const names = (objs: KubeObject[]) => objs.map((o) => o.metadata.name).sort();
    const poolNamespaces = (
      await client.list(R.namespace, undefined, { labelSelector: 'hive.openshift.io/cluster-pool-name=small' })
    ).items;
    expect(names(poolNamespaces)).toEqual(names(installedCds));

    // Long enough later that Hive deletes a pool namespace it believes empty; and the ClusterDeployments'
    // list is slow to answer, so the namespaces' informer syncs first.
    clock.advance(60 * 60_000);
    server.faults.set({ latency: [{ verb: 'list', resource: 'clusterdeployments', ms: 300 }] });
    const seen: string[] = [];
    const second = start(recordingClient(client, seen));
    cleanup.push(() => second.close());
    await second.synced;
    await second.idle();

    // Every kind the controllers watch was listed before their first write.
    const informed = [
      R.clusterDeployment,
      R.clusterPool,
      R.clusterClaim,
      R.clusterRelocate,
      R.clusterImageSet,
      R.clusterProvision,
      R.clusterDeprovision,
      R.clusterSync,
      R.namespace,
    ].map((r) => `listed ${r.plural}`);
    const firstWrite = seen.findIndex((s) => !s.startsWith('listed '));
    const beforeWriting = firstWrite < 0 ? seen : seen.slice(0, firstWrite);
    expect(beforeWriting, `in order: ${seen.slice(0, 12).join(', ')}, …`).toEqual(expect.arrayContaining(informed));
    const namespaces = (
      await client.list(R.namespace, undefined, { labelSelector: 'hive.openshift.io/cluster-pool-name=small' })
    ).items;
    expect(names(namespaces)).toEqual(names(poolNamespaces));
    expect(namespaces.filter((ns) => ns.metadata.deletionTimestamp).map((ns) => ns.metadata.name)).toEqual([]);
    const cds = (await client.list(R.clusterDeployment)).items;
    expect(names(cds)).toEqual(names(installedCds));
    expect(cds.filter((cd) => cd.metadata.deletionTimestamp).map((cd) => cd.metadata.name)).toEqual([]);
  }, 60_000);
});

describe('simulated Hive controllers starting an install', () => {
  it('create one ClusterProvision per attempt: a provision whose recording on the CD failed, not yet seen by the informer, is waited for and adopted', async () => {
    const server = await startApiServer(hubOptions());
    cleanup.push(() => server.close());
    const client = createKubeClient({ server: server.url, token: TOKEN });
    await client.create(R.hiveConfig, { metadata: { name: 'hive' }, spec: {} });
    await createPrerequisites(client, 'team-p');

    // The controllers' client: the first write of status.provisionRef is lost (the ClusterProvision exists, the CD
    // does not name it), and the ClusterProvisions' watch events are held back, as a lagging watch would.
    let lose = true;
    let lost!: () => void;
    const wasLost = new Promise<void>((resolve) => (lost = resolve));
    let decided!: () => void;
    const decidedAgain = new Promise<void>((resolve) => (decided = resolve));
    let holding = true;
    const held: Array<() => void> = [];
    const lines: string[] = [];
    const controllersClient: KubeClient = {
      ...client,
      async updateStatus(r, obj) {
        if (lose && r.plural === 'clusterdeployments' && obj.status?.provisionRef) {
          lose = false;
          lost();
          throw Object.assign(new Error('injected: the write of provisionRef was lost'), { code: 503 });
        }
        return client.updateStatus(r, obj);
      },
      // The CD reconcile checks the install-config right before it decides whether to start a provision.
      async tryGet(r, ns, name) {
        if (!lose && r.plural === 'secrets' && name === 'install-config') decided();
        return client.tryGet(r, ns, name);
      },
      watch(r, ns, opts) {
        if (r.plural !== 'clusterprovisions') return client.watch(r, ns, opts);
        return client.watch(r, ns, {
          ...opts,
          onEvent: (type, obj) => (holding ? held.push(() => opts.onEvent(type, obj)) : opts.onEvent(type, obj)),
        });
      },
    };
    const hive = startHiveControllers({
      hub: 'hub',
      client: controllersClient,
      clock: createTestClock(),
      durations: resolveDurations({}, 2000),
      log: (obj, msg) => lines.push(`${msg} ${JSON.stringify(obj)}`),
      options: { deleteProtection: false, installFailures: 0 },
    });
    cleanup.push(() => hive.close());
    await hive.synced;

    await client.create(R.clusterDeployment, awsClusterDeployment('team-p', 'once'));
    await wasLost;
    // A reconcile after the lost write reaches the decision (and is still running, so idle() waits for it).
    await decidedAgain;
    await hive.idle();
    const provisions = async () => (await client.list(R.clusterProvision, 'team-p')).items.map((p) => p.metadata.name);
    expect(await provisions()).toHaveLength(1);

    holding = false;
    for (const deliver of held.splice(0)) deliver();
    const cd = await installed(client, 'team-p', 'once');
    const [only] = await provisions();
    expect(await provisions()).toEqual([only]);
    expect(cd?.status?.provisionRef?.name).toBe(only);
    expect(
      lines.filter((l) => l.startsWith('provision started')),
      lines.join('\n'),
    ).toHaveLength(1);
    expect(
      lines.filter((l) => l.startsWith('provision adopted')),
      lines.join('\n'),
    ).toHaveLength(1);
  }, 60_000);
});
