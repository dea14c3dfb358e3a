// docker-compose.yml as a user runs it, proven without Docker (these machines have no container engine): the file is
// valid Compose (the Compose Specification's JSON schema, as dclint ships it) and keeps what it promises (noeviction,
// two workers, health checks and start order, no host port twice, entry files and settings that exist). The
// processes it describes, started from this checkout with the README's curl examples, are in
// compose-processes.test.ts.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { CONFIG_ENV_VARS, loadConfig } from '../../src/config.js';
import { ROOT, activeServices, interpolate, loadCompose, publishedPort } from './compose-file.js';

const TOKEN = randomBytes(32).toString('hex');
const compose = loadCompose(['docker-compose.yml'], { BEEKEEPER_TOKEN: TOKEN });
const IMAGE = 'beekeeper:dev';
const beekeeper = Object.entries(compose.services).filter(([, s]) => s.image === IMAGE);
const ROLES = ['api', 'worker', 'scheduler'];
const service = (name: string) => compose.services[name]!;

const schemaFile = join(
  dirname(createRequire(import.meta.url).resolve('dclint/package.json')),
  'schemas/compose.schema.json',
);
// Draft 07, named by an https $schema URI Ajv does not know by that spelling: Ajv's own draft-07 reads it.
const { $schema: _draft, ...schema } = JSON.parse(readFileSync(schemaFile, 'utf8'));
const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
const schemaErrors = (model: unknown) =>
  validate(model) ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);

describe('docker-compose.yml', () => {
  it('is a valid Compose file (Compose Specification schema), also merged with docker-compose.hubs.yml', () => {
    expect(schemaErrors(compose)).toEqual([]);
    const production = loadCompose(['docker-compose.yml', 'docker-compose.hubs.yml'], {
      BEEKEEPER_TOKEN: TOKEN,
      BEEKEEPER_HUBS: 'east=/etc/beekeeper/hubs/kubeconfig#east',
    });
    expect(schemaErrors(production)).toEqual([]);
  });

  it('refuses to start without BEEKEEPER_TOKEN, and says how to make one', () => {
    expect(() => loadCompose(['docker-compose.yml'], {})).toThrow(/BEEKEEPER_TOKEN.*openssl rand -hex 32/);
    expect(service('api').environment!.BEEKEEPER_API_TOKENS).toBe(`admin=${TOKEN}`);
  });

  it('Redis evicts nothing (maxmemory-policy noeviction), keeps an AOF, and is healthy when redis-cli ping answers', () => {
    const redis = service('redis');
    expect(redis.image).toMatch(/^redis:/);
    expect(redis.command!.join(' ')).toContain('--maxmemory-policy noeviction');
    expect(redis.command!.join(' ')).toContain('--appendonly yes');
    expect(redis.healthcheck!.test).toEqual(['CMD', 'redis-cli', 'ping']);
  });

  it('runs two workers, and nothing with replicas publishes a port', () => {
    expect(service('worker').deploy?.replicas).toBe(2);
    for (const [name, s] of Object.entries(compose.services))
      if ((s.deploy?.replicas ?? 1) > 1) expect(s.ports ?? [], name).toEqual([]);
  });

  it('every Beekeeper service has a health check; api, worker and scheduler start once Redis and the simulator are healthy', () => {
    expect(beekeeper.map(([name]) => name).sort()).toEqual(['api', 'demo', 'scheduler', 'sim', 'worker']);
    for (const [name, s] of beekeeper) expect(s.healthcheck?.test?.[0], name).toBe('CMD');
    for (const role of ROLES)
      expect(service(role).depends_on, role).toMatchObject({
        redis: { condition: 'service_healthy' },
        sim: { condition: 'service_healthy' },
      });
    expect(service('demo').depends_on).toEqual({ redis: { condition: 'service_healthy' } });
    expect(service('redis').healthcheck).toBeDefined();
  });

  it('no two services publish one host port, in any combination of profiles; the api is on 8080 as the README says', () => {
    const profiles = [...new Set(Object.values(compose.services).flatMap((s) => s.profiles ?? []))];
    expect(profiles).toContain('demo');
    for (let mask = 0; mask < 1 << profiles.length; mask++) {
      const active = profiles.filter((_, i) => mask & (1 << i));
      const ports = activeServices(compose, active).flatMap(([, s]) => (s.ports ?? []).map(publishedPort));
      expect(new Set(ports).size, `profiles [${active.join()}]: ${ports.join()}`).toBe(ports.length);
    }
    expect(service('api').ports).toEqual(['127.0.0.1:8080:8080']);
  });

  it('every Beekeeper command names an entry file: dist/main/<name>.js built from src/main/<name>.ts', () => {
    for (const [name, s] of beekeeper) {
      const entry = /^dist\/main\/([a-z-]+)\.js$/.exec(s.command?.[0] ?? '');
      expect(entry, `${name}: ${s.command?.join(' ')}`).not.toBeNull();
      expect(existsSync(join(ROOT, 'src/main', `${entry![1]}.ts`)), name).toBe(true);
    }
    for (const role of ROLES) expect(service(role).command).toEqual([`dist/main/${role}.js`]);
  });

  it('every variable set for Beekeeper is one it reads, and each role loads its settings from them', () => {
    for (const [name, s] of beekeeper) {
      for (const variable of Object.keys(s.environment ?? {}))
        expect(CONFIG_ENV_VARS, `${name}: ${variable}`).toContain(variable);
      if (name !== 'sim') expect(() => loadConfig(s.environment!), name).not.toThrow();
    }
    const hubs = loadConfig(service('api').environment!).hubs;
    expect(hubs.map((h) => [h.name, h.context])).toEqual([
      ['local', 'local'],
      ['west', 'west'],
    ]);
  });

  it('docker-compose.hubs.yml: hubs from ./hubs and BEEKEEPER_HUBS, no simulator, nothing waits for it', () => {
    const hubs = 'east=/etc/beekeeper/hubs/kubeconfig#east,west=/etc/beekeeper/hubs/kubeconfig#west';
    const production = loadCompose(['docker-compose.yml', 'docker-compose.hubs.yml'], {
      BEEKEEPER_TOKEN: TOKEN,
      BEEKEEPER_HUBS: hubs,
    });
    expect(activeServices(production, []).map(([name]) => name)).not.toContain('sim');
    for (const role of ROLES) {
      const s = production.services[role]!;
      expect(s.depends_on, role).toEqual({ redis: { condition: 'service_healthy' } });
      expect(s.volumes, role).toEqual(['./hubs:/etc/beekeeper/hubs:ro']);
      expect(
        loadConfig(s.environment!).hubs.map((h) => h.name),
        role,
      ).toEqual(['east', 'west']);
    }
    expect(() => loadCompose(['docker-compose.yml', 'docker-compose.hubs.yml'], { BEEKEEPER_TOKEN: TOKEN })).toThrow(
      /BEEKEEPER_HUBS/,
    );
  });
});

// The interpolation the static checks rely on behaves as Compose's.
it('compose interpolation: defaults, required values and $$', () => {
  expect(interpolate('${A:-x} ${B-y} $$HOME ${C}', { B: '' })).toBe('x  $HOME ');
  expect(() => interpolate('${A:?say so}', { A: '' })).toThrow('say so');
});
