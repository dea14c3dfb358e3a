// deploy/hub-access/make-kubeconfig.sh (docs/hub-access.md) as an admin runs it against a hub: the kubeconfig it
// prints must trust the hub's CA whichever way the admin's context names it. kubeadm and minikube write the CA as a
// file path (`certificate-authority:`), which `kubectl config view --raw` leaves as a path; the script once missed it
// and printed a kubeconfig that skipped TLS verification.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:tls';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { startApiServer, type ApiServer } from '../../src/sim/apiserver/index.js';
import { needs } from '../support/needs.js';
import { kubectlMissing, repoRoot } from './render.js';

const run = promisify(execFile);
const script = path.join(repoRoot, 'deploy/hub-access/make-kubeconfig.sh');

/** The certificate the hub serves (self-signed, so it is its own CA), as PEM. */
async function servedCertificate(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const der = await new Promise<Buffer>((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate().raw);
      socket.end();
    }).once('error', reject);
  });
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

describe('deploy/hub-access/make-kubeconfig.sh', needs(kubectlMissing), () => {
  let server: ApiServer;
  let dir: string;
  let caPem: string;
  /** The admin's kubeconfig, its CA given the way `ca` says. */
  const adminKubeconfig = (name: string, ca: Record<string, unknown>) => {
    const file = path.join(dir, name);
    const doc = {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'hub', cluster: { server: server.url, ...ca } }],
      users: [{ name: 'admin', user: { token: server.token } }],
      contexts: [{ name: 'hub', context: { cluster: 'hub', user: 'admin' } }],
      'current-context': 'hub',
    };
    writeFileSync(file, stringify(doc), { mode: 0o600 });
    return file;
  };
  const makeKubeconfig = (kubeconfig: string, env: Record<string, string> = {}) =>
    run('sh', [script, 'west'], {
      // HOME: kubectl keeps its discovery cache there (in the working directory when unset).
      env: { PATH: process.env.PATH, HOME: dir, KUBECONFIG: kubeconfig, TOKEN_DURATION: '1h', ...env },
      cwd: dir,
      timeout: 60_000,
    });

  beforeAll(async () => {
    server = await startApiServer({ tls: true, name: 'west' });
    dir = mkdtempSync(path.join(tmpdir(), 'make-kubeconfig-'));
    caPem = await servedCertificate(server.url);
    writeFileSync(path.join(dir, 'ca.crt'), caPem);
    const setup = adminKubeconfig('setup', { 'insecure-skip-tls-verify': true });
    await run('kubectl', ['--kubeconfig', setup, 'apply', '-k', path.join(repoRoot, 'deploy/hub-access')], {
      timeout: 30_000,
    });
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    {
      tag: 'file',
      how: 'a file (certificate-authority)',
      ca: () => ({ 'certificate-authority': path.join(dir, 'ca.crt') }),
    },
    {
      tag: 'inline',
      how: 'inline (certificate-authority-data)',
      ca: () => ({ 'certificate-authority-data': Buffer.from(caPem).toString('base64') }),
    },
  ])('trusts the CA the admin context names as $how, and the ServiceAccount signs in with it', async ({ tag, ca }) => {
    const admin = adminKubeconfig(`admin-${tag}`, ca());
    const { stdout, stderr } = await makeKubeconfig(admin);
    expect(stderr).toBe('');
    expect(stdout).not.toContain('insecure-skip-tls-verify');
    expect(stdout).toContain(`certificate-authority-data: ${Buffer.from(caPem).toString('base64')}`);
    const out = path.join(dir, `west-${tag}.kubeconfig`);
    writeFileSync(out, stdout, { mode: 0o600 });
    // TLS verified against that CA, as Beekeeper's ServiceAccount: it may list namespaces (ClusterRole beekeeper-hub).
    const { stdout: namespaces } = await run('kubectl', ['--kubeconfig', out, 'get', 'namespaces', '-o', 'name'], {
      timeout: 30_000,
    });
    expect(namespaces).toContain('namespace/beekeeper-access');
  });

  it('refuses when no CA is found, rather than handing the token to a server nobody verified, unless told to', async () => {
    const admin = adminKubeconfig('admin-no-ca', { 'insecure-skip-tls-verify': true });
    const refused = await makeKubeconfig(admin).then(
      () => undefined,
      (err: { code?: number; stdout?: string; stderr?: string }) => err,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stdout).toBe('');
    expect(refused?.stderr).toContain('no CA found');
    const { stdout, stderr } = await makeKubeconfig(admin, { INSECURE_SKIP_TLS_VERIFY: 'true' });
    expect(stdout).toContain('insecure-skip-tls-verify: true');
    expect(stderr).toContain('INSECURE_SKIP_TLS_VERIFY=true');
  });
});
