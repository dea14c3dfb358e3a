// Configuration from a YAML file (BEEKEEPER_CONFIG) beside the environment, and how bad values are reported:
// all at once, each once, in the order of the settings, named by variable or file key.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { problems, yamlFile } from './config-support.js';

describe('configuration', () => {
  it('reads a YAML file, lets the environment override it, and reports unknown keys and bad entries', () => {
    const ok = yamlFile(`
hubs:
  - name: east
    kubeconfig: /k/east.yaml
    concurrency: 3
  - name: west
    inCluster: true
http: { port: 9000 }
logLevel: debug
`);
    const config = loadConfig({ BEEKEEPER_CONFIG: ok, PORT: '9100' });
    expect(config.hubs.map((h) => [h.name, h.concurrency])).toEqual([
      ['east', 3],
      ['west', 20],
    ]);
    expect(config.http.port).toBe(9100);
    expect(config.logLevel).toBe('debug');

    const bad = yamlFile(`
concurency: { perHub: 2 }
hubs:
  - name: east
  - name: west
    kubeconfig: /k/w.yaml
    inCluster: true
    qps: fast
`);
    const issues = problems({ BEEKEEPER_CONFIG: bad });
    expect(issues).toEqual([
      `concurency (${bad}): unknown key`,
      `hubs[0] (${bad}): set exactly one of kubeconfig (a path) or inCluster: true`,
      `hubs[1] (${bad}): set exactly one of kubeconfig (a path) or inCluster: true`,
      `hubs[1].qps (${bad}): "fast" is not a number`,
    ]);
  });

  it('lists every bad value however many there are, each once, in the order of the settings', () => {
    const issues = problems({
      PORT: '70000',
      LOG_LEVEL: 'loud',
      BEEKEEPER_CONCURRENCY: 'many',
      BEEKEEPER_GLOBAL_CONCURRENCY: '1.5',
      BEEKEEPER_KUBE_QPS: '0x10',
      BEEKEEPER_KUBE_BURST: '0',
      BEEKEEPER_SIM_SPEED: 'fast',
      BEEKEEPER_SIM_SEED: 'lots',
      BEEKEEPER_STATE_NAMESPACE: 'Beekeeper',
      BEEKEEPER_JOB_LOCK_MS: '10',
      BEEKEEPER_SHUTDOWN_GRACE_MS: '-1',
    });
    expect(issues).toEqual([
      'PORT: 70000 is outside 0..65535',
      'BEEKEEPER_CONCURRENCY: "many" is not an integer',
      'BEEKEEPER_GLOBAL_CONCURRENCY: "1.5" is not an integer',
      'BEEKEEPER_KUBE_QPS: "0x10" is not a number',
      'BEEKEEPER_KUBE_BURST: 0 is outside 1..100000',
      'LOG_LEVEL: "loud" must be one of fatal, error, warn, info, debug, trace, silent',
      'BEEKEEPER_SIM_SPEED: "fast" is not a number',
      'BEEKEEPER_SIM_SEED: "lots" must be one of demo, none',
      'BEEKEEPER_STATE_NAMESPACE: "Beekeeper" must be a DNS label (lowercase letters, digits, -)',
      'BEEKEEPER_JOB_LOCK_MS: 10 is outside 1000..3600000',
      'BEEKEEPER_SHUTDOWN_GRACE_MS: -1 is outside 0..3600000',
    ]);
  });

  it('names the entry and the field of a bad list entry, in the environment and in the file', () => {
    expect(
      problems({
        BEEKEEPER_HUBS: 'east=#admin,west=in-cluster,east=/k/e.yaml,nonsense',
        BEEKEEPER_REDIS_CLUSTER_NODES: 'n1:6379,n2,n3:70000',
        BEEKEEPER_API_TOKENS: 'ci=0123456789abcdef,a-bare-secret-token,ops=short',
      }),
    ).toEqual([
      'BEEKEEPER_HUBS: hub east is listed twice',
      'BEEKEEPER_HUBS: "east=#admin": kubeconfig must not be empty',
      'BEEKEEPER_HUBS: "nonsense" must be name=/path/to/kubeconfig[#context] or name=in-cluster (name a DNS label)',
      'BEEKEEPER_REDIS_CLUSTER_NODES: "n2" is not host:port',
      'BEEKEEPER_REDIS_CLUSTER_NODES: "n3:70000": port 70000 is outside 1..65535',
      'BEEKEEPER_API_TOKENS: entry 2 must be written name=token',
      'BEEKEEPER_API_TOKENS: token for ops must be at least 16 characters',
    ]);

    const file = yamlFile(`
hubs:
  - name: East
    kubeconfig: /k/east.yaml
    concurrency: 0
    region: us-east-1
  - west
  - { name: north, inCluster: maybe }
redis:
  cluster: { nodes: ["n1:6379", { host: n2, port: 99999 }, { port: 6379 }] }
auth: { tokens: [{ name: ci, token: hunter2hunter2 }] }
`);
    const issues = problems({ BEEKEEPER_CONFIG: file });
    expect(issues).toEqual([
      `hubs[0].region (${file}): unknown key`,
      `hubs[0].name (${file}): "East" must be a DNS label (lowercase letters, digits, -)`,
      `hubs[0].concurrency (${file}): 0 is outside 1..10000`,
      `hubs[1] (${file}): "west" must be a mapping`,
      `hubs[2] (${file}): set exactly one of kubeconfig (a path) or inCluster: true`,
      `hubs[2].inCluster (${file}): "maybe" must be true or false`,
      `redis.cluster.nodes[1].port (${file}): 99999 is outside 1..65535`,
      `redis.cluster.nodes[2].host (${file}): is required`,
      `auth.tokens[0].token (${file}): must be at least 16 characters`,
    ]);
    expect(issues.join('\n')).not.toContain('hunter2');
  });

  it('takes Redis nodes in the file as host:port strings or as {host, port} mappings', () => {
    const file = yamlFile(`
redis:
  sentinel:
    sentinels: ["s1:26379", { host: s2, port: 26379 }, { host: s3, port: "26380" }]
    name: mymaster
`);
    expect(loadConfig({ BEEKEEPER_CONFIG: file }).redis.sentinel?.sentinels).toEqual([
      { host: 's1', port: 26379 },
      { host: 's2', port: 26379 },
      { host: 's3', port: 26380 },
    ]);
  });

  it('names what a rule across settings asks for by its variable, and by its file key when a file is in use', () => {
    const file = yamlFile('redis: { sentinel: { sentinels: ["s1:26379"] } }\n');
    expect(problems({ BEEKEEPER_CONFIG: file, BEEKEEPER_HTTP_HOST: ' ' })).toEqual([
      `BEEKEEPER_REDIS_SENTINEL_NAME or redis.sentinel.name (${file}): required with Sentinel (the master group name)`,
      'BEEKEEPER_HTTP_HOST: " " must be more than blanks',
    ]);
    expect(problems({ BEEKEEPER_REDIS_SENTINELS: 's1:26379' })).toEqual([
      'BEEKEEPER_REDIS_SENTINEL_NAME: required with Sentinel (the master group name)',
    ]);
  });

  it('reports an unreadable file', () => {
    expect(problems({ BEEKEEPER_CONFIG: '/nonexistent/beekeeper.yaml' })).toEqual([
      expect.stringMatching(/^BEEKEEPER_CONFIG: cannot read \/nonexistent\/beekeeper.yaml/),
    ]);
  });
});
