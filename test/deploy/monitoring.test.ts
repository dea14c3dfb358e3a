// deploy/monitoring: the PrometheusRule and the Grafana dashboard parse as what they claim to be, and every metric
// their PromQL names is one a running Beekeeper (every role in one process) really exposes, so a renamed metric
// fails here instead of leaving an alert that never fires or a blank panel. The PromQL is parsed with Prometheus's
// own grammar (@prometheus-io/lezer-promql), so a syntax error fails here too, not at the Prometheus operator.
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parser } from '@prometheus-io/lezer-promql';
import { createTestClock } from '../../src/clock.js';
import { loadConfig, withEmbeddedHub, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { closeRedis, createRedis, waitReady } from '../../src/redis/connect.js';
import { startSimulator, type Simulator } from '../../src/sim/simulator.js';
import { ALL_ROLES, createSystem, type System } from '../../src/system.js';
import { prepareEmbeddedHub } from '../../src/system/embedded-hub.js';

const file = (name: string) => readFileSync(new URL(`../../deploy/monitoring/${name}`, import.meta.url), 'utf8');

const rule = parse(file('prometheusrule.yaml'));
const dashboard = JSON.parse(file('grafana-dashboard.json'));

/** Series Prometheus makes itself, not Beekeeper. */
const FROM_PROMETHEUS = new Set(['up']);

/** Grafana's own variables in ranges, as Grafana substitutes them before the query reaches Prometheus. */
const forPrometheus = (expr: string) => expr.replace(/\$__rate_interval|\$__interval|\$__range/g, '5m');

/**
 * The expression parsed with Prometheus's own PromQL grammar (the one its UI uses): the metric names its vector
 * selectors read, and the first syntax error if any.
 */
function promql(expr: string): { names: string[]; error?: string } {
  const text = forPrometheus(expr);
  const names = new Set<string>();
  let error: string | undefined;
  parser.parse(text).iterate({
    enter(node) {
      if (node.type.isError) error ??= `syntax error at ${node.from} in ${text}`;
      if (node.name === 'VectorSelector') {
        const id = node.node.getChild('Identifier');
        if (id) names.add(text.slice(id.from, id.to));
      }
    },
  });
  return { names: [...names], ...(error ? { error } : {}) };
}
const metricNames = (expr: string) => promql(expr).names;

const ruleExprs: string[] = rule.spec.groups.flatMap((g: { rules: Array<{ expr: string }> }) =>
  g.rules.map((r) => r.expr),
);
const panelExprs: string[] = dashboard.panels.flatMap((p: { targets?: Array<{ expr: string }> }) =>
  (p.targets ?? []).map((t) => t.expr),
);
const variableExprs: string[] = dashboard.templating.list
  .filter((v: { type: string }) => v.type === 'query')
  .map((v: { definition: string }) => v.definition.replace(/^label_values\((.*),\s*\w+\)$/, '$1'));

describe('the monitoring manifests', () => {
  it('are a PrometheusRule with alerts for failed jobs, stuck sweeps, waiting claims, hubs, Redis and targets', () => {
    expect(rule).toMatchObject({ apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule' });
    expect(rule.metadata.name).toBe('beekeeper');
    const alerts = rule.spec.groups.flatMap((g: { rules: Array<{ alert: string }> }) => g.rules.map((r) => r.alert));
    expect(alerts).toEqual(
      expect.arrayContaining([
        'BeekeeperJobsFailing',
        'BeekeeperSweepStuck',
        'BeekeeperScheduleEdgeMissed',
        'BeekeeperClaimWaitingTooLong',
        'BeekeeperHubUnreachable',
        'BeekeeperRedisDown',
        'BeekeeperTargetDown',
      ]),
    );
    const hub = rule.spec.groups.flatMap((g: any) => g.rules).find((r: any) => r.alert === 'BeekeeperHubUnreachable');
    expect(hub.for).toBe('5m');
  });

  it('is an importable Grafana dashboard whose panels all have a query, with the standard process metric names', () => {
    expect(dashboard).toMatchObject({ title: 'Beekeeper', uid: expect.any(String), schemaVersion: expect.any(Number) });
    expect(dashboard.templating.list.map((v: { name: string }) => v.name)).toEqual(['datasource', 'namespace', 'hub']);
    const graphs = dashboard.panels.filter((p: { type: string }) => p.type !== 'row');
    expect(graphs.every((p: { targets?: unknown[] }) => (p.targets ?? []).length > 0)).toBe(true);
    const ids = dashboard.panels.map((p: { id: number }) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const used = new Set(panelExprs.flatMap(metricNames));
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'beekeeper_claim_wait_seconds_bucket',
    ])
      expect(used).toContain(name);
  });

  it('are valid PromQL: every alert expression, panel query and variable', () => {
    const broken = [...ruleExprs, ...panelExprs, ...variableExprs].map((e) => promql(e).error).filter(Boolean);
    expect(broken).toEqual([]);
    // The parser does catch a broken one, and reads names from selectors only (not functions or labels).
    expect(promql('sum(rate(beekeeper_jobs[5m])').error).toBeDefined();
    expect(metricNames('min_over_time((max by (hub) (a_b{x="y"}))[30m:1m]) > 0 and on (hub) up == 0')).toEqual([
      'a_b',
      'up',
    ]);
  });
});

describe('the metrics the manifests use', () => {
  let sim: Simulator;
  let config: Config;
  let system: System;
  let exposed: Set<string>;

  beforeAll(async () => {
    sim = await startSimulator({ hubNames: ['east'], controllers: false });
    const base = loadConfig({
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      BEEKEEPER_REDIS_PREFIX: `{bk-monitoring-${randomUUID().slice(0, 8)}}`,
      BEEKEEPER_AUTH_OPEN: 'true',
    });
    config = withEmbeddedHub(base, { name: 'east', kubeconfigData: sim.kubeconfigYaml() });
    const log = createLogger({ level: 'silent' });
    const clock = createTestClock();
    await prepareEmbeddedHub({ hub: config.hubs[0]!, namespace: config.stateNamespace, clock, log });
    system = await createSystem({ config, log, clock, roles: ALL_ROLES });
    const body = (await system.app.inject({ url: '/metrics' })).body;
    // Every registered family has its TYPE line even before a first sample; histograms and summaries expose
    // their series under suffixes.
    exposed = new Set();
    for (const [, name, type] of body.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      exposed.add(name!);
      if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) exposed.add(`${name}${s}`);
      if (type === 'summary') for (const s of ['_sum', '_count']) exposed.add(`${name}${s}`);
    }
  }, 30_000);
  afterAll(async () => {
    await system?.close();
    await sim?.close();
    if (!config) return;
    const redis = createRedis(config.redis, 'producer');
    await waitReady(redis);
    const keys = await redis.keys(`${config.redis.prefix}*`);
    if (keys.length) await redis.del(...keys);
    await closeRedis(redis);
  });

  it('are all exposed by a running Beekeeper: every alert expression, panel query and dashboard variable', () => {
    const missing = (exprs: string[]) =>
      [...new Set(exprs.flatMap(metricNames))].filter((n) => !FROM_PROMETHEUS.has(n) && !exposed.has(n)).sort();
    expect(missing(ruleExprs), 'PrometheusRule').toEqual([]);
    expect(missing(panelExprs), 'dashboard panels').toEqual([]);
    expect(missing(variableExprs), 'dashboard variables').toEqual([]);
    expect(exposed).toContain('beekeeper_redis_up');
    expect([...exposed].filter((n) => n.startsWith('beekeeper_process_') || n.startsWith('beekeeper_nodejs_'))).toEqual(
      [],
    );
  });
});
