// kubectl works against the double unchanged (over HTTPS: kubectl never sends a bearer token over plain HTTP).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startApiServer, type ApiServer } from '../../src/sim/apiserver/index.js';
import { hiveCrds } from '../../src/sim/crds/index.js';
import { needs } from '../support/needs.js';

const run = promisify(execFile);
const hasKubectl = await run('kubectl', ['version', '--client']).then(() => true, () => false);

describe('kubectl against the double', needs(hasKubectl ? undefined : 'needs kubectl on the PATH'), () => {
  let server: ApiServer;
  let dir: string;
  let kubeconfig: string;
  const kubectl = async (...args: string[]) => (await run('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: 20_000 })).stdout;

  beforeAll(async () => {
    server = await startApiServer({ crds: hiveCrds(), tls: true, users: [{ token: 'bot-token', username: 'system:serviceaccount:team-b:bot' }] });
    dir = mkdtempSync(path.join(tmpdir(), 'kubectl-contract-'));
    kubeconfig = path.join(dir, 'kubeconfig.json');
    writeFileSync(kubeconfig, JSON.stringify(server.kubeconfig('sim')));
    const bot: any = server.kubeconfig('sim');
    bot.users[0].user.token = 'bot-token';
    writeFileSync(path.join(dir, 'bot.kubeconfig'), JSON.stringify(bot));
    writeFileSync(path.join(dir, 'cd.yaml'), [
      'apiVersion: hive.openshift.io/v1', 'kind: ClusterDeployment', 'metadata:', '  name: k1', '  namespace: default', 'spec:',
      '  baseDomain: example.com', '  clusterName: k1', '  platform:', '    aws:', '      region: us-east-1',
      '      credentialsSecretRef:', '        name: aws-creds', '  pullSecretRef:', '    name: pull-secret', ''].join('\n'));
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('gets, creates, patches, watches and deletes a ClusterDeployment', async () => {
    expect(await kubectl('get', 'namespaces', '-o', 'name')).toContain('namespace/default');
    expect(await kubectl('create', '-f', path.join(dir, 'cd.yaml'))).toContain('clusterdeployment.hive.openshift.io/k1 created');
    expect(await kubectl('patch', 'cd', 'k1', '--type', 'merge', '-p', '{"spec":{"powerState":"Hibernating"}}')).toContain('patched');
    expect(await kubectl('get', 'cd', 'k1', '-o', 'jsonpath={.spec.powerState}')).toBe('Hibernating');
    // kubectl get prints the server's Table: the CRD's printer columns, and each built-in kind's own.
    expect((await kubectl('get', 'cd', '-o', 'wide')).split('\n')[0]!.split(/\s+/))
      .toEqual(['NAME', 'INFRAID', 'PLATFORM', 'REGION', 'VERSION', 'CLUSTERTYPE', 'PROVISIONSTATUS', 'POWERSTATE', 'AGE']);
    expect(await kubectl('get', 'namespace', 'default')).toMatch(/^NAME\s+STATUS\s+AGE\ndefault\s+Active\s+\d+s\n$/);
    // A watch that the server ends after its timeout prints the current object first.
    const watched = await kubectl('get', 'cd', '-w', '--request-timeout=2s', '-o', 'name');
    expect(watched).toContain('clusterdeployment.hive.openshift.io/k1');
    const invalid = await kubectl('patch', 'cd', 'k1', '--type', 'merge', '-p', '{"spec":{"powerState":"Bogus"}}').catch((e) => e.stderr as string);
    expect(invalid).toContain('Unsupported value: "Bogus"');
    expect(await kubectl('delete', 'cd', 'k1')).toContain('deleted');
    expect(await kubectl('get', 'cd', '-o', 'name')).toBe('');
  });

  it('runs the imperative generators, which send built-in kinds as protobuf', async () => {
    expect(await kubectl('create', 'namespace', 'team-a')).toContain('namespace/team-a created');
    await kubectl('create', 'secret', 'generic', 'creds', '-n', 'team-a', '--from-literal=password=hunter2');
    await kubectl('create', 'configmap', 'settings', '-n', 'team-a', '--from-literal=mode=fast');
    await kubectl('create', 'rolebinding', 'rb', '-n', 'team-a', '--clusterrole=view', '--serviceaccount=team-a:bot');
    expect(Buffer.from(await kubectl('get', 'secret', 'creds', '-n', 'team-a', '-o', 'jsonpath={.data.password}'), 'base64').toString()).toBe('hunter2');
    expect(await kubectl('get', 'configmap', 'settings', '-n', 'team-a', '-o', 'jsonpath={.data.mode}')).toBe('fast');
    expect(JSON.parse(await kubectl('get', 'rolebinding', 'rb', '-n', 'team-a', '-o', 'json')).subjects)
      .toEqual([{ kind: 'ServiceAccount', name: 'bot', namespace: 'team-a' }]);
  });

  it('answers kubectl auth can-i from the same RBAC rules that guard requests', async () => {
    const asBot = async (...args: string[]) => run('kubectl', ['--kubeconfig', path.join(dir, 'bot.kubeconfig'), ...args], { timeout: 20_000 })
      .then((r) => r.stdout.trim(), (e) => `${e.stdout}${e.stderr}`.trim());
    expect((await kubectl('auth', 'can-i', 'delete', 'clusterdeployments', '-A')).trim()).toBe('yes');
    await kubectl('create', 'namespace', 'team-b');
    expect(await asBot('auth', 'can-i', 'list', 'cd', '-n', 'team-b')).toBe('no');
    await kubectl('create', 'role', 'cd-reader', '-n', 'team-b', '--verb=get,list', '--resource=clusterdeployments.hive.openshift.io');
    await kubectl('create', 'rolebinding', 'cd-reader', '-n', 'team-b', '--role=cd-reader', '--serviceaccount=team-b:bot');
    expect(await asBot('auth', 'can-i', 'list', 'cd', '-n', 'team-b')).toBe('yes');
    expect(await asBot('auth', 'can-i', 'delete', 'cd', '-n', 'team-b')).toBe('no');
    expect(await asBot('auth', 'can-i', 'list', 'cd', '-n', 'default')).toBe('no');
    // The answer agrees with what the server then does.
    expect(await asBot('get', 'cd', '-n', 'team-b', '-o', 'name')).toBe('');
    expect(await asBot('get', 'cd', '-n', 'default')).toContain('forbidden');
  });

  it('applies twice (client-side and server-side), scales, waits, describes with Events and deletes without waiting', async () => {
    const file = path.join(dir, 'cd.yaml');
    expect(await kubectl('apply', '-f', file)).toContain('clusterdeployment.hive.openshift.io/k1 created');
    const rv = await kubectl('get', 'cd', 'k1', '-o', 'jsonpath={.metadata.resourceVersion}');
    expect(await kubectl('apply', '-f', file)).toContain('clusterdeployment.hive.openshift.io/k1 unchanged');
    expect(await kubectl('get', 'cd', 'k1', '-o', 'jsonpath={.metadata.resourceVersion}')).toBe(rv);
    expect(await kubectl('get', 'cd', 'k1', '-o', 'jsonpath={.metadata.annotations}')).toContain('kubectl.kubernetes.io/last-applied-configuration');
    expect(await kubectl('apply', '--server-side', '-f', file)).toContain('serverside-applied');
    // kubectl edit: the editor's change goes back as a patch computed from the edited document.
    const editor = path.join(dir, 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\nsed -i "s/^  clusterName: k1$/  clusterName: k1\\n  powerState: Hibernating/" "$1"\n', { mode: 0o755 });
    const edited = await run('kubectl', ['--kubeconfig', kubeconfig, 'edit', 'cd', 'k1'], { timeout: 20_000, env: { ...process.env, KUBE_EDITOR: editor } });
    expect(edited.stdout).toContain('clusterdeployment.hive.openshift.io/k1 edited');
    expect(await kubectl('get', 'cd', 'k1', '-o', 'jsonpath={.spec.powerState}')).toBe('Hibernating');
    expect(await kubectl('get', 'cd', 'k1', '-o', 'jsonpath={.metadata.managedFields[*].manager}')).toContain('kubectl');

    writeFileSync(path.join(dir, 'pool.json'), JSON.stringify({ apiVersion: 'hive.openshift.io/v1', kind: 'ClusterPool',
      metadata: { name: 'p1', namespace: 'default' }, spec: { baseDomain: 'example.com', imageSetRef: { name: 'img' }, size: 1,
        platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } }, pullSecretRef: { name: 'pull-secret' } } }));
    await kubectl('create', '-f', path.join(dir, 'pool.json'));
    expect(await kubectl('scale', 'clusterpool', 'p1', '--replicas=3')).toContain('clusterpool.hive.openshift.io/p1 scaled');
    expect(await kubectl('get', 'clusterpool', 'p1', '-o', 'jsonpath={.spec.size}')).toBe('3');

    // kubectl wait watches (field selector metadata.name) until the condition appears.
    const waiting = kubectl('wait', '--for=condition=Ready', 'cd/k1', '--timeout=20s');
    await kubectl('patch', 'cd', 'k1', '--subresource=status', '--type=merge', '-p',
      JSON.stringify({ status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Running', message: 'ok' }] } }));
    expect(await waiting).toContain('clusterdeployment.hive.openshift.io/k1 condition met');

    const uid = await kubectl('get', 'cd', 'k1', '-o', 'jsonpath={.metadata.uid}');
    writeFileSync(path.join(dir, 'event.json'), JSON.stringify({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'k1.1', namespace: 'default' },
      involvedObject: { apiVersion: 'hive.openshift.io/v1', kind: 'ClusterDeployment', name: 'k1', namespace: 'default', uid },
      reason: 'Hibernating', message: 'the cluster hibernates', type: 'Normal', source: { component: 'hive' } }));
    await kubectl('create', '-f', path.join(dir, 'event.json'));
    expect(await kubectl('describe', 'cd', 'k1')).toMatch(/Events:\s+Type\s+Reason\s+Age\s+From\s+Message[\s\S]*Normal\s+Hibernating\s+.*hive\s+the cluster hibernates/);
    expect(await kubectl('get', 'events', '--field-selector', 'reason=Hibernating', '-o', 'name')).toBe('event/k1.1\n');
    expect(await kubectl('get', 'events', '--field-selector', 'reason=Other', '-o', 'name')).toBe('');

    await kubectl('patch', 'cd', 'k1', '--type=merge', '-p', '{"metadata":{"finalizers":["example.com/hold"]}}');
    expect(await kubectl('delete', 'cd', 'k1', '--wait=false')).toContain('deleted');
    const gone = kubectl('wait', '--for=delete', 'cd/k1', '--timeout=20s');
    await kubectl('patch', 'cd', 'k1', '--type=merge', '-p', '{"metadata":{"finalizers":null}}');
    // kubectl wait exits 0 whether it saw the deletion happen or found the object already gone (a race with the patch).
    await gone;
    expect(await kubectl('get', 'cd', 'k1', '--ignore-not-found', '-o', 'name')).toBe('');
  });
});
