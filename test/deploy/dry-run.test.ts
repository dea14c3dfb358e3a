// Every overlay passes a server-side dry run on the simulator, which validates the rendered objects against the
// Kubernetes schemas (kubernetes-models' OpenAPI definitions) and the CRDs a real cluster has (Prometheus Operator,
// OpenShift Route), after Beekeeper's own CRDs are applied. As on a real API server (goldens 97-98), a dry run
// persists nothing, so the namespaces are created for real first: a dry-run Namespace does not exist for the objects
// after it, and NamespaceLifecycle would refuse them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { startApiServer, type ApiServer } from '../../src/sim/apiserver/index.js';
import { needs } from '../support/needs.js';
import { builtinKinds, crds } from './kube-schemas.js';
import { OVERLAYS, kubectlMissing, render, renderYaml, repoRoot } from './render.js';

const run = promisify(execFile);

describe('server-side dry run of deploy/ on the simulator', needs(kubectlMissing), () => {
  let server: ApiServer;
  let dir: string;
  let kubeconfig: string;
  const kubectl = async (...args: string[]) =>
    (await run('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: 30_000 })).stdout;
  /** kubectl's stderr when it fails (it must), as a user reads it. */
  const refused = async (...args: string[]) =>
    kubectl(...args).then(
      (out) => {
        throw new Error(`kubectl succeeded: ${out}`);
      },
      (err: { stderr: string }) => err.stderr,
    );

  beforeAll(async () => {
    server = await startApiServer({ tls: true, kinds: builtinKinds(), crds: crds() });
    dir = mkdtempSync(path.join(tmpdir(), 'deploy-dry-run-'));
    kubeconfig = path.join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, JSON.stringify(server.kubeconfig('sim')), { mode: 0o600 });
    await kubectl('apply', '-f', path.join(repoRoot, 'deploy/crds'));
    for (const overlay of OVERLAYS) {
      const namespaces = (await render(`overlays/${overlay}`)).filter((o) => o.kind === 'Namespace');
      writeFileSync(path.join(dir, `${overlay}-ns.yaml`), namespaces.map((n) => stringify(n)).join('---\n'));
      await kubectl('apply', '-f', path.join(dir, `${overlay}-ns.yaml`));
      writeFileSync(path.join(dir, `${overlay}.yaml`), await renderYaml(`overlays/${overlay}`));
    }
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(OVERLAYS)('%s: kubectl apply --dry-run=server accepts every object and stores none', async (overlay) => {
    const { stdout: out, stderr } = await run(
      'kubectl',
      ['--kubeconfig', kubeconfig, 'apply', '--dry-run=server', '-f', path.join(dir, `${overlay}.yaml`)],
      { timeout: 30_000 },
    );
    expect(stderr).toBe(''); // no Warning: unknown field, no deprecation
    const ns = overlay === 'dev' ? 'beekeeper-dev' : 'beekeeper';
    for (const line of [
      'deployment.apps/beekeeper-api created (server dry run)',
      'service/beekeeper-api created (server dry run)',
      'poddisruptionbudget.policy/beekeeper-worker created (server dry run)',
      'networkpolicy.networking.k8s.io/beekeeper-api created (server dry run)',
    ])
      expect(out).toContain(line);
    if (overlay === 'openshift') {
      expect(out).toContain('route.route.openshift.io/beekeeper-api created (server dry run)');
      expect(out).toContain('servicemonitor.monitoring.coreos.com/beekeeper created (server dry run)');
      expect(out).toContain('prometheusrule.monitoring.coreos.com/beekeeper created (server dry run)');
    }
    if (overlay === 'kubernetes')
      expect(out).toContain('ingress.networking.k8s.io/beekeeper-api created (server dry run)');
    expect(await kubectl('get', 'deployments,services,networkpolicies', '-n', ns, '-o', 'name')).toBe('');
  });

  it('refuses objects in a namespace that only a dry run created, as NamespaceLifecycle does on a real server', async () => {
    const file = path.join(dir, 'nowhere.yaml');
    writeFileSync(
      file,
      [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'nowhere' } },
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'nowhere' } },
      ]
        .map((o) => stringify(o))
        .join('---\n'),
    );
    expect(await refused('apply', '--dry-run=server', '-f', file)).toContain('namespaces "nowhere" not found');
  });

  it('server-side apply (--server-side) dry run accepts the openshift overlay too', async () => {
    const out = await kubectl('apply', '--server-side', '--dry-run=server', '-f', path.join(dir, 'openshift.yaml'));
    expect(out).toContain('deployment.apps/beekeeper-worker serverside-applied (server dry run)');
    expect(out).toContain('route.route.openshift.io/beekeeper-api serverside-applied (server dry run)');
  });

  const deployment = (patch: (d: any) => void) => {
    const d: any = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'broken', namespace: 'beekeeper' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'broken' } },
        template: {
          metadata: { labels: { app: 'broken' } },
          spec: { containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 8080 }] }] },
        },
      },
    };
    patch(d);
    const file = path.join(dir, `broken-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(file, stringify(d));
    return file;
  };

  it('refuses a Deployment whose replicas is a string with the decoder error of a real API server', async () => {
    const file = deployment((d) => (d.spec.replicas = 'two'));
    expect(await refused('apply', '--dry-run=server', '-f', file)).toContain(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    const port = deployment((d) => (d.spec.template.spec.containers[0].ports[0].containerPort = '8080'));
    expect(await refused('apply', '--dry-run=server', '-f', port)).toContain(
      'json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32',
    );
  });

  it('refuses an unknown field under strict field validation, naming its path', async () => {
    const file = deployment((d) => (d.spec.template.spec.containers[0].imagePullPolicyy = 'Always'));
    expect(await refused('apply', '--dry-run=server', '--validate=strict', '-f', file)).toContain(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolicyy"',
    );
  });

  it('refuses what the schemas and Go rules require: a missing selector, a bad protocol, pods the selector misses, a Route without a target', async () => {
    const file = deployment((d) => {
      delete d.spec.selector;
      d.spec.template.spec.containers[0].ports[0].protocol = 'HTTP';
    });
    const err = await refused('apply', '--dry-run=server', '-f', file);
    expect(err).toContain('The Deployment "broken" is invalid');
    expect(err).toContain('spec.selector: Required value');
    expect(err).toContain(
      'spec.template.spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
    );
    const unselected = deployment((d) => (d.spec.template.metadata.labels = { app: 'other', tier: 'x' }));
    expect(await refused('apply', '--dry-run=server', '-f', unselected)).toContain(
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"other", "tier":"x"}: `selector` does not match template `labels`',
    );
    const route = path.join(dir, 'route.yaml');
    writeFileSync(
      route,
      stringify({
        apiVersion: 'route.openshift.io/v1',
        kind: 'Route',
        metadata: { name: 'r', namespace: 'beekeeper' },
        spec: { tls: { termination: 'edge', insecureEdgeTerminationPolicy: 'Redirect' } },
      }),
    );
    expect(await refused('apply', '--dry-run=server', '-f', route)).toContain('spec.to: Required value');
  });
});
