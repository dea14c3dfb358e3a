// Private Redis topologies for the Sentinel and Cluster tests: redis-server processes on random free ports, each in
// its own temp dir, all stopped and removed by close(). Tests skip when the binaries are missing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from '../../src/redis/bootstrap.js';

export const haveRedisBinaries = ['redis-server', 'redis-cli'].every(
  (bin) => spawnSync(bin, ['--version'], { stdio: 'ignore' }).status === 0,
);

export interface Topology {
  /** `host:port` list for the BEEKEEPER_REDIS_* variables. */
  addresses: string;
  close(): Promise<void>;
}

/** Processes and directories started so far, so a failure half-way still cleans up everything. */
function createCleanup() {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  return {
    children,
    dir() {
      const d = mkdtempSync(join(tmpdir(), 'beekeeper-redis-topology-'));
      dirs.push(d);
      return d;
    },
    async close() {
      await Promise.all(
        children.splice(0).map(async (child) => {
          if (child.exitCode !== null || child.signalCode !== null) return;
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGKILL');
          await exited;
        }),
      );
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    },
  };
}

type Cleanup = ReturnType<typeof createCleanup>;

/** Start a redis-server (or sentinel, with `--sentinel`) from a config file and wait until it answers PING. */
async function startServer(cleanup: Cleanup, lines: string[], sentinel = false): Promise<number> {
  const port = await freePort();
  const dir = cleanup.dir();
  const conf = join(dir, 'redis.conf');
  // Nothing durable: no snapshots, no AOF. Sentinel rewrites its config file, so it must be a real file.
  writeFileSync(
    conf,
    [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, 'save ""', 'appendonly no', ...lines].join('\n') + '\n',
  );
  const child = spawn('redis-server', sentinel ? [conf, '--sentinel'] : [conf], { stdio: 'ignore' });
  cleanup.children.push(child);
  const probe = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  });
  probe.on('error', () => undefined);
  try {
    for (let i = 0; i < 100; i++) {
      if (child.exitCode !== null) break;
      try {
        if (probe.status !== 'ready') await probe.connect();
        if ((await probe.ping()) === 'PONG') return port;
      } catch {
        probe.disconnect();
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    probe.disconnect();
  }
  throw new Error(`redis-server on port ${port} did not start`);
}

export interface SentinelTopology extends Topology {
  /** Port of the server started as the replica (read-only until a failover promotes it). */
  replicaPort: number;
  /** Port of the server the sentinel currently names as master. */
  masterPort(): Promise<number>;
  /** Promote the replica (SENTINEL FAILOVER) and resolve once the sentinel names it as master. */
  failover(): Promise<number>;
}

const redisCli = (port: number, ...args: string[]) =>
  spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).stdout.trim();

/** A master, a replica of it, and one sentinel watching them as `name`. */
export async function startSentinel(name: string): Promise<SentinelTopology> {
  const cleanup = createCleanup();
  try {
    const master = await startServer(cleanup, ['maxmemory-policy noeviction']);
    const replica = await startServer(cleanup, ['maxmemory-policy noeviction', `replicaof 127.0.0.1 ${master}`]);
    const sentinel = await startServer(
      cleanup,
      [`sentinel monitor ${name} 127.0.0.1 ${master} 1`, `sentinel down-after-milliseconds ${name} 5000`],
      true,
    );
    const masterPort = async () =>
      Number(redisCli(sentinel, 'sentinel', 'get-master-addr-by-name', name).split('\n')[1]);
    // The sentinel learns of the replica from the master's INFO; a failover before that fails with NOGOODSLAVE.
    await until('the sentinel sees the replica in sync', () => {
      const replicas = redisCli(sentinel, 'sentinel', 'replicas', name);
      return (
        replicas.includes(String(replica)) &&
        !/disconnected|s_down/.test(replicas) &&
        redisCli(replica, 'info', 'replication').includes('master_link_status:up')
      );
    });
    return {
      addresses: `127.0.0.1:${sentinel}`,
      close: cleanup.close,
      replicaPort: replica,
      masterPort,
      async failover() {
        const before = await masterPort();
        const answer = redisCli(sentinel, 'sentinel', 'failover', name);
        if (answer !== 'OK') throw new Error(`SENTINEL FAILOVER: ${answer}`);
        await until('the sentinel names the new master', async () => (await masterPort()) !== before);
        return masterPort();
      },
    };
  } catch (err) {
    await cleanup.close();
    throw err;
  }
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Three masters joined into a Redis Cluster without replicas, all 16384 slots covered. */
export async function startCluster(): Promise<Topology> {
  const cleanup = createCleanup();
  try {
    const ports: number[] = [];
    for (let i = 0; i < 3; i++) {
      ports.push(
        await startServer(cleanup, [
          'cluster-enabled yes',
          'cluster-config-file nodes.conf',
          'cluster-node-timeout 5000',
          'maxmemory-policy noeviction',
        ]),
      );
    }
    const nodes = ports.map((p) => `127.0.0.1:${p}`);
    const create = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes'],
      {
        encoding: 'utf8',
        timeout: 15_000,
      },
    );
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    await waitClusterOk(ports);
    return { addresses: nodes.join(','), close: cleanup.close };
  } catch (err) {
    await cleanup.close();
    throw err;
  }
}

/** `cluster_state:ok` on every node: slots are assigned and the nodes agree, so clients see a whole cluster. */
async function waitClusterOk(ports: number[]): Promise<void> {
  await until('every cluster node says cluster_state:ok', () =>
    ports.every((p) => redisCli(p, 'cluster', 'info').includes('cluster_state:ok')),
  );
}
