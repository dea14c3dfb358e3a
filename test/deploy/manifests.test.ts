// deploy/ as a platform team would review it: every overlay renders, runs the released image (or dev's tag), passes
// OpenShift's restricted-v2 SCC and Kubernetes' restricted profile, coexists with the others on one cluster, and
// carries a config.yaml that Beekeeper's own config loader accepts.
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { needs } from '../support/needs.js';
import { CLUSTER_SCOPED, OVERLAYS, kubectlMissing, render, repoRoot, type Overlay } from './render.js';
import { podSpecOf, restrictedV2Violations } from './restricted-v2.js';

const version: string = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).version;
const ROLES = ['api', 'worker', 'scheduler'] as const;
const find = (objs: any[], kind: string, name: string) => objs.find((o) => o.kind === kind && o.metadata.name === name);
const images = (objs: any[]) =>
  objs.flatMap((o) => [...(podSpecOf(o)?.initContainers ?? []), ...(podSpecOf(o)?.containers ?? [])]);

describe('deploy/ overlays', needs(kubectlMissing), () => {
  const rendered = {} as Record<Overlay | 'base', any[]>;
  beforeAll(async () => {
    for (const o of OVERLAYS) rendered[o] = await render(`overlays/${o}`);
    rendered.base = await render('base');
  });

  it('name the image the overlay ships: the release for openshift and kubernetes, `dev` for dev; base keeps the placeholder', () => {
    const beekeeper = (o: any[]) =>
      images(o)
        .filter((c) => ROLES.includes(c.name))
        .map((c) => c.image);
    expect(beekeeper(rendered.base)).toEqual(['beekeeper', 'beekeeper', 'beekeeper']);
    for (const o of ['openshift', 'kubernetes'] as const)
      expect(beekeeper(rendered[o])).toEqual(Array(3).fill(`ghcr.io/beekeeper/beekeeper:${version}`));
    expect(beekeeper(rendered.dev)).toEqual(Array(3).fill('ghcr.io/beekeeper/beekeeper:dev'));
    for (const o of OVERLAYS) expect(images(rendered[o]).map((c) => c.image)).not.toContain('beekeeper');
  });

  it('run each role from the compiled entry file, with probes, resources and a grace period', () => {
    for (const role of ROLES) {
      const d = find(rendered.openshift, 'Deployment', `beekeeper-${role}`);
      const c = d.spec.template.spec.containers[0];
      expect(c.args).toEqual([`dist/main/${role}.js`]);
      // No runAsUser, runAsGroup or fsGroup: the SCC assigns them from the namespace's range.
      expect(d.spec.template.spec.securityContext).toEqual({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(c.securityContext).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      expect(c.readinessProbe.httpGet.path).toBe('/readyz');
      expect(c.livenessProbe.httpGet.path).toBe('/healthz');
      expect(c.startupProbe.httpGet.path).toBe('/healthz');
      expect(c.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
      expect(c.resources.limits.memory).toBeDefined();
      expect(d.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(30);
      expect(d.spec.template.spec.topologySpreadConstraints.map((t: any) => t.topologyKey)).toEqual([
        'topology.kubernetes.io/zone',
        'kubernetes.io/hostname',
      ]);
    }
  });

  it('mount the hubs Secret as an optional directory (never subPath, so changes reach the pod) and require the api tokens', () => {
    for (const role of ROLES) {
      const spec = find(rendered.openshift, 'Deployment', `beekeeper-${role}`).spec.template.spec;
      const hubs = spec.volumes.find((v: any) => v.name === 'hubs');
      expect(hubs.secret).toMatchObject({ secretName: 'beekeeper-hubs', optional: true });
      const mount = spec.containers[0].volumeMounts.find((m: any) => m.name === 'hubs');
      expect(mount).toEqual({ name: 'hubs', mountPath: '/etc/beekeeper/hubs', readOnly: true });
      expect(spec.volumes.find((v: any) => v.name === 'tmp').emptyDir).toBeDefined();
    }
    const api = find(rendered.openshift, 'Deployment', 'beekeeper-api').spec.template.spec.containers[0];
    const tokens = api.env.find((e: any) => e.name === 'BEEKEEPER_API_TOKENS').valueFrom.secretKeyRef;
    expect(tokens).toEqual({ name: 'beekeeper-api-tokens', key: 'BEEKEEPER_API_TOKENS' });
  });

  it.each(OVERLAYS)('%s: every pod template passes restricted-v2', (overlay) => {
    const pods = rendered[overlay].filter((o) => podSpecOf(o));
    expect(pods.length).toBeGreaterThanOrEqual(3);
    for (const o of pods)
      expect({ [o.metadata.name]: restrictedV2Violations(podSpecOf(o)) }).toEqual({ [o.metadata.name]: [] });
  });

  it('the checker refuses the old shape (runAsUser: 1000) and privileged extras', () => {
    const old = structuredClone(find(rendered.openshift, 'Deployment', 'beekeeper-api').spec.template.spec);
    old.securityContext.runAsUser = 1000;
    expect(restrictedV2Violations(old)).toEqual([
      "spec.securityContext.runAsUser: 1000 is outside the namespace's range (leave it unset: the SCC assigns one)",
    ]);
    expect(restrictedV2Violations(old, { uidRange: { min: 1000, max: 1999 } })).toEqual([]);
    const worse = structuredClone(old);
    worse.hostNetwork = true;
    worse.volumes.push({ name: 'docker', hostPath: { path: '/var/run' } });
    worse.containers[0].securityContext = { capabilities: { add: ['SYS_ADMIN'] } };
    worse.containers[0].ports[0].hostPort = 8080;
    const v = restrictedV2Violations(worse);
    for (const want of [
      'hostNetwork',
      'hostPath',
      'allowPrivilegeEscalation',
      'drop: must include ALL',
      'SYS_ADMIN',
      'hostPort',
    ])
      expect(v.some((x) => x.includes(want))).toBe(true);
  });

  it('kubernetes: the namespace enforces the restricted Pod Security profile', () => {
    const ns = find(rendered.kubernetes, 'Namespace', 'beekeeper');
    expect(ns.metadata.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'restricted',
      'pod-security.kubernetes.io/warn': 'restricted',
      'pod-security.kubernetes.io/audit': 'restricted',
    });
  });

  it('dev coexists with production: own namespace, cluster-scoped names suffixed, its binding names only its ServiceAccount', () => {
    const clusterNames = (objs: any[]) =>
      new Set(objs.filter((o) => CLUSTER_SCOPED.has(o.kind)).map((o) => `${o.kind}/${o.metadata.name}`));
    const dev = clusterNames(rendered.dev);
    for (const prod of ['openshift', 'kubernetes'] as const)
      for (const name of clusterNames(rendered[prod])) expect(dev.has(name), name).toBe(false);
    const namespaces = (objs: any[]) =>
      new Set(objs.filter((o) => !CLUSTER_SCOPED.has(o.kind)).map((o) => o.metadata.namespace));
    expect(namespaces(rendered.dev)).toEqual(new Set(['beekeeper-dev']));
    expect(namespaces(rendered.openshift)).toEqual(new Set(['beekeeper']));
    expect(namespaces(rendered.kubernetes)).toEqual(new Set(['beekeeper']));
    for (const [overlay, ns] of [
      ['dev', 'beekeeper-dev'],
      ['openshift', 'beekeeper'],
    ] as const) {
      const bindings = rendered[overlay].filter((o) => o.kind === 'ClusterRoleBinding');
      expect(bindings.length).toBeGreaterThan(0);
      const ownRoles = (o: Overlay) =>
        rendered[o].filter((r) => r.kind === 'ClusterRole').map((r) => r.metadata.name as string);
      const everyOwnRole = new Set(OVERLAYS.flatMap(ownRoles));
      for (const b of bindings) {
        for (const s of b.subjects.filter((x: any) => x.kind === 'ServiceAccount' && x.name === 'beekeeper'))
          expect(s.namespace).toBe(ns);
        // Its own ClusterRole, or one the cluster has (system:auth-delegator...), never the other install's.
        if (everyOwnRole.has(b.roleRef.name)) expect(ownRoles(overlay)).toContain(b.roleRef.name);
      }
    }
  });

  it('openshift: a Route with edge TLS redirecting http to the api Service, a ServiceMonitor for all three roles, the alerts', () => {
    const objs = rendered.openshift;
    const route = find(objs, 'Route', 'beekeeper-api');
    expect(route.spec.tls).toEqual({ termination: 'edge', insecureEdgeTerminationPolicy: 'Redirect' });
    const svc = find(objs, 'Service', route.spec.to.name);
    expect(svc.spec.ports.map((p: any) => p.name)).toContain(route.spec.port.targetPort);
    const sm = objs.find((o) => o.kind === 'ServiceMonitor');
    const selected = objs.filter(
      (o) =>
        o.kind === 'Service' &&
        Object.entries(sm.spec.selector.matchLabels).every(([k, v]) => o.metadata.labels?.[k] === v) &&
        sm.spec.selector.matchExpressions.every((e: any) => e.values.includes(o.metadata.labels?.[e.key])),
    );
    expect(selected.map((s) => s.metadata.name).sort()).toEqual(ROLES.map((r) => `beekeeper-${r}`).sort());
    for (const s of selected) expect(s.spec.ports.map((p: any) => p.name)).toContain(sm.spec.endpoints[0].port);
    expect(sm.spec.endpoints[0].path).toBe('/metrics');
    expect(objs.filter((o) => o.kind === 'PrometheusRule')).toHaveLength(1);
    expect(find(rendered.kubernetes, 'Ingress', 'beekeeper-api').spec.rules[0].http.paths[0].backend.service.name).toBe(
      'beekeeper-api',
    );
  });

  it('a disruption budget per role that never blocks a drain with one replica, except the api keeping one pod', () => {
    const pdbs = (objs: any[]) =>
      Object.fromEntries(objs.filter((o) => o.kind === 'PodDisruptionBudget').map((o) => [o.metadata.name, o.spec]));
    expect(pdbs(rendered.openshift)).toMatchObject({
      'beekeeper-api': { minAvailable: 1 },
      'beekeeper-worker': { maxUnavailable: 1 },
      'beekeeper-scheduler': { maxUnavailable: 1 },
    });
    expect(Object.keys(pdbs(rendered.dev)).sort()).toEqual(['beekeeper-scheduler', 'beekeeper-worker']);
  });

  it('network policy: the api port is open to all, every role to monitoring, nothing else', () => {
    const np = (name: string) => find(rendered.openshift, 'NetworkPolicy', name).spec;
    expect(np('beekeeper-api')).toMatchObject({
      podSelector: { matchLabels: { 'app.kubernetes.io/component': 'api' } },
      policyTypes: ['Ingress'],
      ingress: [{ ports: [{ protocol: 'TCP', port: 8080 }] }],
    });
    expect(np('beekeeper-api').ingress[0].from).toBeUndefined();
    expect(np('beekeeper-metrics').ingress[0].from[0].namespaceSelector.matchExpressions[0].values).toContain(
      'openshift-user-workload-monitoring',
    );
  });

  it.each(OVERLAYS)("%s: the ConfigMap's config.yaml loads through Beekeeper's config loader", (overlay) => {
    const cm = find(rendered[overlay], 'ConfigMap', 'beekeeper-config');
    const dir = mkdtempSync(path.join(tmpdir(), 'deploy-config-'));
    try {
      const file = path.join(dir, 'config.yaml');
      writeFileSync(file, cm.data['config.yaml']);
      const config = loadConfig({ BEEKEEPER_CONFIG: file });
      expect(config.hubs.map((h) => [h.name, h.inCluster])).toEqual([['local', true]]);
      expect(config.http.port).toBe(8080);
      expect(config.logLevel).toBe(overlay === 'dev' ? 'debug' : 'info');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
