import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig, withEmbeddedHub } from '../../src/config.js';
import { problems, yamlFile } from './config-support.js';

describe('configuration', () => {
  it('runs embedded with no configuration at all: one local hub from the simulator, open API on loopback', () => {
    const config = loadConfig({});
    expect(config.hubs).toEqual([]);
    expect(config.http).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(config.stateHub).toBe('local');
    expect(config.redis.prefix).toBe('{beekeeper}');
    expect(config.sim).toEqual({ speed: 60, seed: 'demo', kubeconfig: '.beekeeper/embedded.kubeconfig' });
    expect(Object.isFrozen(config.jobs)).toBe(true);
    const embedded = withEmbeddedHub(config, { name: 'local', kubeconfigData: 'apiVersion: v1' });
    expect(embedded.hubs.map((h) => h.name)).toEqual(['local']);
  });

  it('lists every bad value at once, naming the variable', () => {
    const issues = problems({
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      BEEKEEPER_CONCURRENCY: '0',
      BEEKEEPER_HUBS: 'east=/k/east.yaml,Bad_Name=/k/x.yaml',
      REDIS_URL: 'http://nope',
      BEEKEEPER_API_TOKENS: 'ci=short',
      BEEKEEPER_SIM_SEED: 'lots',
      BEEKEEPER_STATE_HUB: 'west',
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PORT: "eighty" is not an integer/),
        expect.stringMatching(/^LOG_LEVEL: "loud" must be one of/),
        expect.stringMatching(/^BEEKEEPER_CONCURRENCY: 0 is outside 1\.\./),
        expect.stringMatching(/^BEEKEEPER_HUBS: "Bad_Name=\/k\/x.yaml"/),
        expect.stringMatching(/^REDIS_URL: must be a redis:\/\//),
        expect.stringMatching(/^BEEKEEPER_API_TOKENS: token for ci must be at least 16/),
        expect.stringMatching(/^BEEKEEPER_SIM_SEED: "lots" must be one of demo, none/),
        expect.stringMatching(/^BEEKEEPER_STATE_HUB: "west" is not one of the configured hubs \(east\)/),
      ]),
    );
    expect(issues).toHaveLength(8);
  });

  it('takes a resync interval whose slots every replica can agree on (default 60 s), and names the rule otherwise', () => {
    expect(loadConfig({}).resync).toEqual({ intervalSeconds: 60, operationGraceSeconds: 30 });
    expect(loadConfig({ BEEKEEPER_RESYNC_INTERVAL_SECONDS: '300' }).resync.intervalSeconds).toBe(300);
    expect(loadConfig({ BEEKEEPER_CONFIG: yamlFile('resync:\n  intervalSeconds: 15\n') }).resync.intervalSeconds).toBe(
      15,
    );
    expect(problems({ BEEKEEPER_RESYNC_INTERVAL_SECONDS: '45' })).toEqual([
      expect.stringMatching(/^BEEKEEPER_RESYNC_INTERVAL_SECONDS: 45 must be a number of seconds that divides a minute/),
    ]);
    expect(problems({ BEEKEEPER_RESYNC_INTERVAL_SECONDS: '0' })).toEqual([
      expect.stringMatching(/^BEEKEEPER_RESYNC_INTERVAL_SECONDS: 0 is outside 1\.\.86400/),
    ]);
  });

  it('lets drills shorten how long the resync leaves an unfinished Operation to its request', () => {
    expect(loadConfig({ BEEKEEPER_OPERATION_REPAIR_GRACE_SECONDS: '5' }).resync.operationGraceSeconds).toBe(5);
    expect(problems({ BEEKEEPER_OPERATION_REPAIR_GRACE_SECONDS: '5m' })).toEqual([
      expect.stringMatching(/^BEEKEEPER_OPERATION_REPAIR_GRACE_SECONDS: /),
    ]);
  });

  it('never echoes a secret in an error', () => {
    const message = problems({ REDIS_URL: 'http://user:hunter2@host' }).join('\n');
    expect(message).toContain('REDIS_URL');
    expect(message).not.toContain('hunter2');
  });

  it('reads hubs, Redis Sentinel and tokens from the environment', () => {
    const config = loadConfig({
      BEEKEEPER_HUBS: 'east=/k/east.yaml#admin@east,west=in-cluster',
      BEEKEEPER_REDIS_SENTINELS: 's1:26379,s2:26379',
      BEEKEEPER_REDIS_SENTINEL_NAME: 'mymaster',
      BEEKEEPER_API_TOKENS: 'ci=0123456789abcdef0123',
      BEEKEEPER_GLOBAL_CONCURRENCY: '7',
    });
    expect(config.hubs).toEqual([
      expect.objectContaining({
        name: 'east',
        kubeconfig: '/k/east.yaml',
        context: 'admin@east',
        inCluster: false,
        globalConcurrency: 7,
      }),
      expect.objectContaining({ name: 'west', inCluster: true }),
    ]);
    expect(config.stateHub).toBe('east');
    expect(config.http.host).toBe('127.0.0.1');
    expect(config.redis.sentinel).toEqual({
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      name: 'mymaster',
    });
    // Kept only as its SHA-256: the token itself is dropped when the settings are read.
    expect(config.auth.tokens).toEqual([
      { name: 'ci', tokenSha256: createHash('sha256').update('0123456789abcdef0123').digest('hex') },
    ]);
  });

  it('gives background work slots of its own per hub, from the environment or per hub in the file, and checks them', () => {
    const defaults = loadConfig({ BEEKEEPER_HUBS: 'east=/k/east.yaml' });
    expect(defaults.hubs[0]).toMatchObject({
      concurrency: 20,
      globalConcurrency: 50,
      backgroundConcurrency: 20,
      backgroundGlobalConcurrency: 50,
    });
    const fromEnv = loadConfig({
      BEEKEEPER_HUBS: 'east=/k/east.yaml',
      BEEKEEPER_BACKGROUND_CONCURRENCY: '4',
      BEEKEEPER_BACKGROUND_GLOBAL_CONCURRENCY: '8',
    });
    expect(fromEnv.hubs[0]).toMatchObject({
      concurrency: 20,
      backgroundConcurrency: 4,
      backgroundGlobalConcurrency: 8,
    });
    const file = yamlFile(`
concurrency: { background: 6 }
hubs:
  - name: east
    kubeconfig: /k/east.yaml
    backgroundGlobalConcurrency: 9
`);
    expect(loadConfig({ BEEKEEPER_CONFIG: file }).hubs[0]).toMatchObject({
      backgroundConcurrency: 6,
      backgroundGlobalConcurrency: 9,
    });
    expect(
      problems({ BEEKEEPER_BACKGROUND_CONCURRENCY: '0', BEEKEEPER_BACKGROUND_GLOBAL_CONCURRENCY: 'lots' }),
    ).toEqual([
      expect.stringMatching(/^BEEKEEPER_BACKGROUND_CONCURRENCY: 0 is outside 1\.\./),
      'BEEKEEPER_BACKGROUND_GLOBAL_CONCURRENCY: "lots" is not an integer',
    ]);
  });

  it("sets a sweep's PATCHes in flight per hub (sweepConcurrency): 32, from the environment, or per hub in the file", () => {
    expect(loadConfig({ BEEKEEPER_HUBS: 'east=/k/east.yaml' }).hubs[0]!.sweepConcurrency).toBe(32);
    expect(
      loadConfig({ BEEKEEPER_HUBS: 'east=/k/east.yaml', BEEKEEPER_SWEEP_CONCURRENCY: '8' }).hubs[0]!.sweepConcurrency,
    ).toBe(8);
    const file = yamlFile(`
concurrency: { sweep: 16 }
hubs:
  - name: east
    kubeconfig: /k/east.yaml
  - name: west
    kubeconfig: /k/west.yaml
    sweepConcurrency: 64
`);
    expect(loadConfig({ BEEKEEPER_CONFIG: file }).hubs.map((h) => h.sweepConcurrency)).toEqual([16, 64]);
    expect(problems({ BEEKEEPER_SWEEP_CONCURRENCY: '0' })).toEqual([
      expect.stringMatching(/^BEEKEEPER_SWEEP_CONCURRENCY: 0 is outside 1\.\./),
    ]);
  });

  it('requires a hash tag in the key prefix with Redis Cluster, and one Redis mode only', () => {
    expect(problems({ BEEKEEPER_REDIS_CLUSTER_NODES: 'n1:6379', BEEKEEPER_REDIS_PREFIX: 'beekeeper' })).toEqual([
      expect.stringMatching(/^BEEKEEPER_REDIS_PREFIX: must contain a \{hash tag\}/),
    ]);
    expect(problems({ BEEKEEPER_REDIS_CLUSTER_NODES: 'n1:6379', REDIS_URL: 'redis://x:6379' })).toEqual([
      expect.stringMatching(/^redis: choose one of/),
    ]);
  });
});
