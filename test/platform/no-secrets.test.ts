// No secret anywhere (issue 12): one Beekeeper at log level trace against the simulator, with the secrets a real
// one handles (an API token, the hub's own token, a cluster's inline pull secret and cloud credentials, the admin
// kubeconfig and kubeadmin password read back through the API, a webhook's URL token and signing key). Then every
// log line, every Redis key and value under this test's prefix, the /metrics text, every answer but the two that
// hand a secret out on purpose, and every job payload are searched for each secret and its base64.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTestClock, type TestClock } from '../../src/clock.js';
import { loadConfig, withEmbeddedHub, type Config } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { startExpiryTimers } from '../../src/schedules/expiry-timers.js';
import type { KubeObject } from '../../src/services/ports.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { createSystem, type System } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';

const HUB = 'east';
const NS = 'team-secret';
const API_TOKEN = `tok-${randomUUID()}`;
const PULL_SECRET = `{"auths":{"quay.io":{"auth":"${Buffer.from(`robot:${randomUUID()}`).toString('base64')}"}}}`;
const AWS_SECRET = `aws-${randomUUID()}`;
const WEBHOOK_PATH_TOKEN = `hook-${randomUUID()}`;
const WEBHOOK_KEY = Buffer.from(randomUUID().replaceAll('-', ''), 'utf8'); // 32 bytes
const WEBHOOK_SECRET = `whsec_${WEBHOOK_KEY.toString('base64')}`;

let sim: Simulator;
let system: System;
let clock: TestClock;
let log: Logger;
let receiver: Server;
let receiverPort = 0;
let closedPort = 0;
const delivered: Array<{ url: string; headers: string; body: string }> = [];
let timers: { close(): void } | undefined;
let app: FastifyInstance;
let config: Config;
const logLines: string[] = [];
/** Every answer the test saw, but the kubeconfig and credentials reads (their purpose is to hand a secret out). */
const answers: string[] = [];
/** Learnt while the test runs: the hub's token, the admin kubeconfig's credentials, the kubeadmin password. */
const secrets: string[] = [API_TOKEN, PULL_SECRET, AWS_SECRET, WEBHOOK_PATH_TOKEN, WEBHOOK_SECRET];

async function call(method: string, url: string, payload?: unknown, keep = true) {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${API_TOKEN}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (keep) answers.push(`${method} ${url} ${res.statusCode} ${JSON.stringify(res.headers)} ${res.body}`);
  return res;
}

/** Every string value in a YAML/JSON document (to learn the kubeconfig's credentials). */
function strings(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  if (Array.isArray(node)) return node.flatMap(strings);
  if (node && typeof node === 'object') return Object.values(node).flatMap(strings);
  return [];
}

/** The text of every key under the prefix and its value, read by type. */
async function redisDump(redis: Redis, prefix: string): Promise<string[]> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    for (const key of keys) {
      const type = await redis.type(key);
      let value: unknown;
      if (type === 'string') value = await redis.get(key);
      else if (type === 'hash') value = await redis.hgetall(key);
      else if (type === 'list') value = await redis.lrange(key, 0, -1);
      else if (type === 'set') value = await redis.smembers(key);
      else if (type === 'zset') value = await redis.zrange(key, '0', '-1', 'WITHSCORES');
      else if (type === 'stream') value = await redis.xrange(key, '-', '+');
      out.push(`${key} ${type} ${JSON.stringify(value)}`);
    }
  } while (cursor !== '0');
  return out;
}

function leaksIn(texts: readonly string[]): Array<{ secret: string; where: string }> {
  const needles = secrets
    .filter((s) => s.length >= 8)
    .flatMap((s) => [s, Buffer.from(s).toString('base64')])
    .filter((s, i, all) => all.indexOf(s) === i);
  return texts.flatMap((t) =>
    needles.filter((n) => t.includes(n)).map((n) => ({ secret: `${n.slice(0, 6)}…`, where: t.slice(0, 160) })),
  );
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      delivered.push({ url: req.url ?? '', headers: JSON.stringify(req.headers), body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  receiverPort = (receiver.address() as AddressInfo).port;
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  clock = createTestClock();
  sim = await startSimulator({ hubNames: [HUB], speed: 1000, clock });
  secrets.push(sim.hubs[0]!.token);
  config = withEmbeddedHub(
    loadConfig({
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      BEEKEEPER_REDIS_PREFIX: `{bk-nosecret-${randomUUID().slice(0, 8)}}`,
      BEEKEEPER_API_TOKENS: `admin=${API_TOKEN}`,
      BEEKEEPER_WEBHOOK_ALLOW_CIDRS: '127.0.0.0/8',
      LOG_LEVEL: 'trace',
    }),
    { name: HUB, kubeconfigData: sim.kubeconfigYaml() },
  );
  const logs = new PassThrough();
  logs.on('data', (c: Buffer) => logLines.push(...c.toString().split('\n').filter(Boolean)));
  log = createLogger({ level: 'trace', destination: logs });
  await prepareEmbeddedHub({ hub: config.hubs[0]!, namespace: config.stateNamespace, clock, log });
  system = await createSystem({ config, log, clock, roles: ['api', 'worker'] });
  app = system.app;
  await system.store
    .create('ClusterImageSet', HUB, {
      metadata: { name: 'openshift-v4.16.3' },
      spec: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64' },
    })
    .catch(() => undefined);
}, 120_000);

afterAll(async () => {
  timers?.close();
  await new Promise((r) => receiver?.close(r));
  await system?.close();
  await sim?.close();
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const keys = config ? await redis.keys(`${config.redis.prefix}*`) : [];
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('no secret anywhere', () => {
  it(
    'creates and reads secrets through the API, then finds none of them outside their Secrets',
    { timeout: 90_000 },
    async () => {
      // A cluster with an inline pull secret and cloud credentials (written to Secrets during the request).
      const create = await call('POST', '/v1/clusters?wait=60', {
        hub: HUB,
        namespace: NS,
        name: 'vault',
        createNamespace: true,
        baseDomain: 'example.com',
        platform: {
          aws: { region: 'us-east-1', credentials: { accessKeyID: 'AKIAEXAMPLE', secretAccessKey: AWS_SECRET } },
        },
        imageSet: 'openshift-v4.16.3',
        pullSecret: PULL_SECRET,
      });
      expect(create.statusCode, create.body).toBe(200);
      expect(create.json().job.state).toBe('completed');
      const installConfig = await system.store.get<KubeObject & { data?: Record<string, string> }>('Secret', {
        hub: HUB,
        namespace: NS,
        name: 'vault-install-config',
      });
      expect(installConfig?.data).toBeDefined();

      // The admin kubeconfig and kubeadmin password, read back (these two answers are the secrets' one way out).
      const kubeconfig = await call('GET', `/v1/clusters/${HUB}/${NS}/vault/kubeconfig`, undefined, false);
      expect(kubeconfig.statusCode).toBe(200);
      const users = (parse(kubeconfig.body) as { users?: Array<{ user?: unknown }> }).users ?? [];
      const userSecrets = strings(users.map((u) => u.user)).filter((s) => s.length >= 8);
      expect(userSecrets.length).toBeGreaterThan(0);
      secrets.push(...userSecrets);
      const credentials = await call('GET', `/v1/clusters/${HUB}/${NS}/vault/credentials`, undefined, false);
      expect(credentials.statusCode).toBe(200);
      secrets.push(credentials.json<{ password: string }>().password);

      // A webhook whose URL carries a token and whose signing key is a secret.
      const hook = await call('PUT', '/v1/webhooks/vault', {
        url: `http://127.0.0.1:${receiverPort}/services/T1/B1/${WEBHOOK_PATH_TOKEN}`,
        secret: WEBHOOK_SECRET,
      });
      expect(hook.statusCode, hook.body).toBe(200);
      // A signed delivery to it and a failing one (the receiver's URL with nobody listening), both at trace level.
      const down = await call('PUT', '/v1/webhooks/down', {
        url: `http://127.0.0.1:${closedPort}/services/T1/B1/${WEBHOOK_PATH_TOKEN}`,
        secret: WEBHOOK_SECRET,
      });
      expect(down.statusCode, down.body).toBe(200);
      const policy = await call('POST', '/v1/expiry-policies', {
        name: 'vault',
        selector: { namespaces: [NS] },
        maxLifetime: '72h',
        warnings: ['2h'],
      });
      expect(policy.statusCode, policy.body).toBe(201);
      const expiry = await call('PUT', `/v1/clusters/${HUB}/${NS}/vault/expiry`, { expiresIn: '3h' });
      expect(expiry.statusCode, expiry.body).toBe(200);
      const state = { hub: HUB, namespace: config.stateNamespace };
      for (const [kind, name] of [
        ['WebhookEndpoint', 'vault'],
        ['WebhookEndpoint', 'down'],
        ['ExpiryPolicy', 'vault'],
      ] as const)
        await system.store.waitFor(kind, { ...state, name }, (o) => o, { timeoutMs: 10_000 });
      timers = startExpiryTimers({
        store: system.store,
        queue: system.queue,
        clock,
        log,
        stateHub: HUB,
        stateNamespace: config.stateNamespace,
      });
      const expiresAt = (await call('GET', `/v1/clusters/${HUB}/${NS}/vault/expiry`)).json<{ expiresAt: string }>()
        .expiresAt;
      clock.set(Date.parse(expiresAt) - 2 * 3_600_000 + 1000);
      const failed = await system.store.waitFor<KubeObject & { status?: { lastDelivery?: { ok?: boolean } } }, boolean>(
        'WebhookEndpoint',
        { ...state, name: 'down' },
        (o) => (o?.status?.lastDelivery?.ok === false ? true : undefined),
        {
          timeoutMs: 20_000,
        },
      );
      expect(failed).toBe(true);
      await system.store.waitFor<KubeObject & { status?: { lastDelivery?: { ok?: boolean } } }, boolean>(
        'WebhookEndpoint',
        { ...state, name: 'vault' },
        (o) => (o?.status?.lastDelivery?.ok === true ? true : undefined),
        { timeoutMs: 20_000 },
      );
      expect(delivered.map((d) => d.url)).toEqual([`/services/T1/B1/${WEBHOOK_PATH_TOKEN}`]);
      expect(delivered[0]!.headers).toContain('webhook-signature');
      await call('GET', '/v1/warnings');
      await call('GET', '/v1/webhooks/down');

      // Refusals that carry the secrets in their requests: bad bodies, a bad token, a bad key.
      const badCluster = await call('POST', '/v1/clusters', {
        hub: HUB,
        namespace: NS,
        name: 'Not_A_Name',
        baseDomain: 'example.com',
        platform: {
          aws: { region: 'us-east-1', credentials: { accessKeyID: 'AKIAEXAMPLE', secretAccessKey: AWS_SECRET } },
        },
        imageSet: 'openshift-v4.16.3',
        pullSecret: PULL_SECRET,
        unknownField: API_TOKEN,
      });
      expect(badCluster.statusCode).toBeGreaterThanOrEqual(400);
      const badHook = await call('PUT', '/v1/webhooks/bad', {
        url: `http://127.0.0.1:9/${WEBHOOK_PATH_TOKEN}`,
        secret: `${WEBHOOK_SECRET}!`,
      });
      expect(badHook.statusCode).toBe(422);
      const wrongToken = await app.inject({ url: '/v1/clusters', headers: { authorization: `Bearer ${API_TOKEN}x` } });
      answers.push(wrongToken.body);
      expect(wrongToken.statusCode).toBe(401);

      // The lists and jobs a caller reads: their payloads too.
      await call('GET', '/v1/clusters');
      await call('GET', `/v1/clusters/${HUB}/${NS}/vault`);
      await call('GET', '/v1/webhooks');
      const jobs = await call('GET', '/v1/jobs');
      for (const job of jobs.json<{ items: Array<{ id: string }> }>().items)
        await call('GET', `/v1/jobs/${encodeURIComponent(job.id)}`);

      const metrics = await app.inject({ url: '/metrics' });
      expect(metrics.statusCode).toBe(200);
      const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
      try {
        const stored = await redisDump(redis, config.redis.prefix);
        expect(stored.length).toBeGreaterThan(0);
        // Debug lines and finer were written (the level lets everything through).
        expect(logLines.some((l) => /"level":(10|20)\b/.test(l))).toBe(true);

        expect(leaksIn(logLines), 'log lines').toEqual([]);
        expect(leaksIn(stored), 'Redis').toEqual([]);
        expect(leaksIn([metrics.body]), '/metrics').toEqual([]);
        expect(leaksIn(answers), 'answers').toEqual([]);
      } finally {
        await redis.quit();
      }
    },
  );
});
