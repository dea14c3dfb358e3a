// kubectl works against the double unchanged, and the same session runs against a real API server: only the
// kubeconfig is used (the double serves HTTPS here, since kubectl never sends a bearer token over plain HTTP).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe } from 'vitest';
import { needs } from '../support/needs.js';
import { contractTargets, startTarget, type Target } from './support/target.js';
import { clusterDeploymentYaml, hasKubectl, run } from './support/kubectl.js';

for (const target of contractTargets()) {
  describe(
    `kubectl against ${target.name}`,
    needs(target.missing ?? (hasKubectl ? undefined : 'needs kubectl on the PATH')),
    () => {
      let t: Target;
      let dir: string;
      let kubeconfig: string;
      let ns: string;
      const extraNamespaces: string[] = [];
      const kubectl = async (...args: string[]) =>
        (await run('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: 20_000 })).stdout;

      beforeAll(async () => {
        t = await startTarget(target.name, { tls: true });
        ns = t.namespace;
        dir = mkdtempSync(path.join(tmpdir(), 'kubectl-contract-'));
        kubeconfig = path.join(dir, 'kubeconfig');
        writeFileSync(kubeconfig, t.kc.exportConfig(), { mode: 0o600 });
        writeFileSync(path.join(dir, 'cd.yaml'), clusterDeploymentYaml('k1', ns));
      });
      afterAll(async () => {
        for (const name of extraNamespaces)
          await kubectl('delete', 'namespace', name, '--wait=false').catch(() => undefined);
        await t?.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
      });

      it('gets, creates, patches, watches and deletes a ClusterDeployment', async () => {
        expect(await kubectl('get', 'namespaces', '-o', 'name')).toContain('namespace/default');
        expect(await kubectl('create', '-f', path.join(dir, 'cd.yaml'))).toContain(
          'clusterdeployment.hive.openshift.io/k1 created',
        );
        expect(
          await kubectl(
            'patch',
            'cd',
            'k1',
            '-n',
            ns,
            '--type',
            'merge',
            '-p',
            '{"spec":{"powerState":"Hibernating"}}',
          ),
        ).toContain('patched');
        expect(await kubectl('get', 'cd', 'k1', '-n', ns, '-o', 'jsonpath={.spec.powerState}')).toBe('Hibernating');
        // kubectl get prints the server's Table: the CRD's printer columns, and each built-in kind's own.
        expect((await kubectl('get', 'cd', '-n', ns, '-o', 'wide')).split('\n')[0]!.split(/\s+/)).toEqual([
          'NAME',
          'INFRAID',
          'PLATFORM',
          'REGION',
          'VERSION',
          'CLUSTERTYPE',
          'PROVISIONSTATUS',
          'POWERSTATE',
          'AGE',
        ]);
        expect(await kubectl('get', 'namespace', ns)).toMatch(
          new RegExp(`^NAME\\s+STATUS\\s+AGE\\n${ns}\\s+Active\\s+\\d+s\\n$`),
        );
        // A watch that the server ends after its timeout prints the current object first.
        const watched = await kubectl('get', 'cd', '-n', ns, '-w', '--request-timeout=2s', '-o', 'name');
        expect(watched).toContain('clusterdeployment.hive.openshift.io/k1');
        const invalid = await kubectl(
          'patch',
          'cd',
          'k1',
          '-n',
          ns,
          '--type',
          'merge',
          '-p',
          '{"spec":{"powerState":"Bogus"}}',
        ).catch((e) => e.stderr as string);
        expect(invalid).toContain('Unsupported value: "Bogus"');
        expect(await kubectl('delete', 'cd', 'k1', '-n', ns)).toContain('deleted');
        expect(await kubectl('get', 'cd', '-n', ns, '-o', 'name')).toBe('');
      });

      it('runs the imperative generators, which send built-in kinds as protobuf', async () => {
        const teamA = `${ns}-a`;
        extraNamespaces.push(teamA);
        expect(await kubectl('create', 'namespace', teamA)).toContain(`namespace/${teamA} created`);
        await kubectl('create', 'secret', 'generic', 'creds', '-n', teamA, '--from-literal=password=hunter2');
        await kubectl('create', 'configmap', 'settings', '-n', teamA, '--from-literal=mode=fast');
        await kubectl(
          'create',
          'rolebinding',
          'rb',
          '-n',
          teamA,
          '--clusterrole=view',
          `--serviceaccount=${teamA}:bot`,
        );
        expect(
          Buffer.from(
            await kubectl('get', 'secret', 'creds', '-n', teamA, '-o', 'jsonpath={.data.password}'),
            'base64',
          ).toString(),
        ).toBe('hunter2');
        expect(await kubectl('get', 'configmap', 'settings', '-n', teamA, '-o', 'jsonpath={.data.mode}')).toBe('fast');
        expect(JSON.parse(await kubectl('get', 'rolebinding', 'rb', '-n', teamA, '-o', 'json')).subjects).toEqual([
          { kind: 'ServiceAccount', name: 'bot', namespace: teamA },
        ]);
      });

      it('answers kubectl auth can-i from the same RBAC rules that guard requests, for a ServiceAccount token from kubectl create token', async () => {
        const teamB = `${ns}-b`;
        extraNamespaces.push(teamB);
        await kubectl('create', 'namespace', teamB);
        await kubectl('create', 'serviceaccount', 'bot', '-n', teamB);
        const token = (await kubectl('create', 'token', 'bot', '-n', teamB)).trim();
        const botConfig = path.join(dir, 'bot.kubeconfig');
        await run('kubectl', ['--kubeconfig', kubeconfig, 'config', 'view', '--minify', '--flatten', '--raw'], {
          timeout: 20_000,
        }).then(({ stdout }) => writeFileSync(botConfig, stdout, { mode: 0o600 }));
        await run('kubectl', ['--kubeconfig', botConfig, 'config', 'set-credentials', 'bot', `--token=${token}`]);
        await run('kubectl', ['--kubeconfig', botConfig, 'config', 'set-context', '--current', '--user=bot']);
        const asBot = async (...args: string[]) =>
          run('kubectl', ['--kubeconfig', botConfig, ...args], { timeout: 20_000 }).then(
            (r) => r.stdout.trim(),
            (e) => `${e.stdout}${e.stderr}`.trim(),
          );
        expect((await kubectl('auth', 'can-i', 'delete', 'clusterdeployments', '-A')).trim()).toBe('yes');
        expect(await asBot('auth', 'can-i', 'list', 'cd', '-n', teamB)).toBe('no');
        await kubectl(
          'create',
          'role',
          'cd-reader',
          '-n',
          teamB,
          '--verb=get,list',
          '--resource=clusterdeployments.hive.openshift.io',
        );
        await kubectl(
          'create',
          'rolebinding',
          'cd-reader',
          '-n',
          teamB,
          '--role=cd-reader',
          `--serviceaccount=${teamB}:bot`,
        );
        expect(await asBot('auth', 'can-i', 'list', 'cd', '-n', teamB)).toBe('yes');
        expect(await asBot('auth', 'can-i', 'delete', 'cd', '-n', teamB)).toBe('no');
        expect(await asBot('auth', 'can-i', 'list', 'cd', '-n', ns)).toBe('no');
        // The answer agrees with what the server then does.
        expect(await asBot('get', 'cd', '-n', teamB, '-o', 'name')).toBe('');
        expect(await asBot('get', 'cd', '-n', ns)).toContain('forbidden');
      });

      it('applies twice (client-side and server-side), scales, waits, describes with Events and deletes without waiting', async () => {
        const file = path.join(dir, 'cd.yaml');
        expect(await kubectl('apply', '-f', file)).toContain('clusterdeployment.hive.openshift.io/k1 created');
        const rv = await kubectl('get', 'cd', 'k1', '-n', ns, '-o', 'jsonpath={.metadata.resourceVersion}');
        expect(await kubectl('apply', '-f', file)).toContain('clusterdeployment.hive.openshift.io/k1 unchanged');
        expect(await kubectl('get', 'cd', 'k1', '-n', ns, '-o', 'jsonpath={.metadata.resourceVersion}')).toBe(rv);
        expect(await kubectl('get', 'cd', 'k1', '-n', ns, '-o', 'jsonpath={.metadata.annotations}')).toContain(
          'kubectl.kubernetes.io/last-applied-configuration',
        );
        expect(await kubectl('apply', '--server-side', '-f', file)).toContain('serverside-applied');
        // kubectl edit: the editor's change goes back as a patch computed from the edited document.
        const editor = path.join(dir, 'editor.sh');
        writeFileSync(
          editor,
          '#!/bin/sh\nsed -i "s/^  clusterName: k1$/  clusterName: k1\\n  powerState: Hibernating/" "$1"\n',
          { mode: 0o755 },
        );
        const edited = await run('kubectl', ['--kubeconfig', kubeconfig, 'edit', 'cd', 'k1', '-n', ns], {
          timeout: 20_000,
          env: { ...process.env, KUBE_EDITOR: editor },
        });
        expect(edited.stdout).toContain('clusterdeployment.hive.openshift.io/k1 edited');
        expect(await kubectl('get', 'cd', 'k1', '-n', ns, '-o', 'jsonpath={.spec.powerState}')).toBe('Hibernating');
        expect(
          await kubectl('get', 'cd', 'k1', '-n', ns, '-o', 'jsonpath={.metadata.managedFields[*].manager}'),
        ).toContain('kubectl');

        writeFileSync(
          path.join(dir, 'pool.json'),
          JSON.stringify({
            apiVersion: 'hive.openshift.io/v1',
            kind: 'ClusterPool',
            metadata: { name: 'p1', namespace: ns },
            spec: {
              baseDomain: 'example.com',
              imageSetRef: { name: 'img' },
              size: 1,
              platform: { aws: { region: 'us-east-1', credentialsSecretRef: { name: 'aws-creds' } } },
              pullSecretRef: { name: 'pull-secret' },
            },
          }),
        );
        await kubectl('create', '-f', path.join(dir, 'pool.json'));
        expect(await kubectl('scale', 'clusterpool', 'p1', '-n', ns, '--replicas=3')).toContain(
          'clusterpool.hive.openshift.io/p1 scaled',
        );
        expect(await kubectl('get', 'clusterpool', 'p1', '-n', ns, '-o', 'jsonpath={.spec.size}')).toBe('3');

        // kubectl wait watches (field selector metadata.name) until the condition appears.
        const waiting = kubectl('wait', '--for=condition=Ready', 'cd/k1', '-n', ns, '--timeout=20s');
        await kubectl(
          'patch',
          'cd',
          'k1',
          '-n',
          ns,
          '--subresource=status',
          '--type=merge',
          '-p',
          JSON.stringify({
            status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Running', message: 'ok' }] },
          }),
        );
        expect(await waiting).toContain('clusterdeployment.hive.openshift.io/k1 condition met');

        const uid = await kubectl('get', 'cd', 'k1', '-n', ns, '-o', 'jsonpath={.metadata.uid}');
        writeFileSync(
          path.join(dir, 'event.json'),
          JSON.stringify({
            apiVersion: 'v1',
            kind: 'Event',
            metadata: { name: 'k1.1', namespace: ns },
            involvedObject: {
              apiVersion: 'hive.openshift.io/v1',
              kind: 'ClusterDeployment',
              name: 'k1',
              namespace: ns,
              uid,
            },
            reason: 'Hibernating',
            message: 'the cluster hibernates',
            type: 'Normal',
            source: { component: 'hive' },
          }),
        );
        await kubectl('create', '-f', path.join(dir, 'event.json'));
        expect(await kubectl('describe', 'cd', 'k1', '-n', ns)).toMatch(
          /Events:\s+Type\s+Reason\s+Age\s+From\s+Message[\s\S]*Normal\s+Hibernating\s+.*hive\s+the cluster hibernates/,
        );
        expect(await kubectl('get', 'events', '-n', ns, '--field-selector', 'reason=Hibernating', '-o', 'name')).toBe(
          'event/k1.1\n',
        );
        expect(await kubectl('get', 'events', '-n', ns, '--field-selector', 'reason=Other', '-o', 'name')).toBe('');

        await kubectl(
          'patch',
          'cd',
          'k1',
          '-n',
          ns,
          '--type=merge',
          '-p',
          '{"metadata":{"finalizers":["example.com/hold"]}}',
        );
        expect(await kubectl('delete', 'cd', 'k1', '-n', ns, '--wait=false')).toContain('deleted');
        const gone = kubectl('wait', '--for=delete', 'cd/k1', '-n', ns, '--timeout=20s');
        await kubectl('patch', 'cd', 'k1', '-n', ns, '--type=merge', '-p', '{"metadata":{"finalizers":null}}');
        // kubectl wait exits 0 whether it saw the deletion happen or found the object already gone (a race with the patch).
        await gone;
        expect(await kubectl('get', 'cd', 'k1', '-n', ns, '--ignore-not-found', '-o', 'name')).toBe('');
      });
    },
  );
}
