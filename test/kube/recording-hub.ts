// A bare HTTPS server standing in for a hub's API server, which records what each request carried (headers as sent,
// the TLS server name), for the tests of kubeconfig credential kinds the simulator does not check. It answers 200
// with a JSON Status, or 401 as an API server refuses credentials it does not know: on path /deny, for the basic
// auth user `refused` and for the Authorization values added to `refused`.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { systemClock } from '../../src/clock.js';
import { createKubeGateway } from '../../src/kube/gateway.js';
import { loadKubeConfig } from '../../src/kube/kubeconfig.js';
import { createRestClient } from '../../src/kube/rest-client.js';
import { selfSignedCertificate } from '../../src/sim/apiserver/self-signed.js';
import type { HubStatus } from '../../src/services/ports.js';
import { quietLog } from './support.js';

export interface Seen {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Each header line as sent, name lower-cased: a repeated header is seen once per line. */
  lines: Array<[string, string]>;
  servername: string | false | null;
}

export interface RecordingHub {
  origin: string;
  /** The server's certificate (PEM), valid for 127.0.0.1, localhost and hub.internal. */
  cert: string;
  seen: Seen[];
  /** Authorization values answered 401 (a revoked token). */
  refused: Set<string>;
  close(): Promise<void>;
}

function refuses(req: { url?: string; headers: { authorization?: string } }, refused: Set<string>): boolean {
  const [scheme, value] = (req.headers.authorization ?? '').split(' ');
  const basicUser =
    scheme === 'Basic'
      ? Buffer.from(value ?? '', 'base64')
          .toString()
          .split(':')[0]
      : undefined;
  return !!req.url?.startsWith('/deny') || basicUser === 'refused' || refused.has(req.headers.authorization ?? '');
}
const unauthorized = JSON.stringify({ kind: 'Status', status: 'Failure', reason: 'Unauthorized', code: 401 });

export async function startRecordingHub(): Promise<RecordingHub> {
  const tls = selfSignedCertificate('hub', ['hub.internal']);
  const seen: Seen[] = [];
  const refused = new Set<string>();
  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const lines: Array<[string, string]> = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      lines.push([req.rawHeaders[i]!.toLowerCase(), req.rawHeaders[i + 1]!]);
    seen.push({ path: req.url ?? '', headers: req.headers, lines, servername: (req.socket as TLSSocket).servername });
    const [status, body] = refuses(req, refused) ? [401, unauthorized] : [200, '{"kind":"Status"}'];
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cert: tls.cert,
    seen,
    refused,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

/** The cluster fields that trust the hub's certificate. */
export const trusting = (hub: RecordingHub) => ({
  'certificate-authority-data': Buffer.from(hub.cert).toString('base64'),
});

/** A kubeconfig as users write them, loaded by Beekeeper's own loader. */
export function kubeconfigFor(
  hub: RecordingHub,
  user: Record<string, unknown>,
  cluster: Record<string, unknown> = trusting(hub),
): KubeConfig {
  const text = toYaml({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'hub', cluster: { server: hub.origin, ...cluster } }],
    users: [{ name: 'beekeeper', user }],
    contexts: [{ name: 'hub', context: { cluster: 'hub', user: 'beekeeper' } }],
    'current-context': 'hub',
  });
  return loadKubeConfig({ name: 'hub', kubeconfigData: text });
}

/** One GET through Beekeeper's hub client; what the hub saw of it. */
export async function sentBy(hub: RecordingHub, kc: KubeConfig, path = '/api/v1/namespaces'): Promise<Seen> {
  const before = hub.seen.length;
  await createRestClient(() => kc).request('GET', path);
  expect(hub.seen).toHaveLength(before + 1);
  return hub.seen[before]!;
}

/** The error a GET through Beekeeper's hub client fails with. */
export const failureOf = (kc: KubeConfig, path = '/deny'): Promise<unknown> =>
  createRestClient(() => kc)
    .request('GET', path)
    .then(
      () => expect.fail('the request succeeded'),
      (err: unknown) => err,
    );

/** What GET /v1/hubs says of a hub reached with `kc` (written to a file in `dir`, as a hub's kubeconfig is). */
export async function hubStatusWith(kc: KubeConfig, dir: string): Promise<HubStatus> {
  const file = join(dir, `hub-${Date.now()}-${Math.random().toString(36).slice(2)}.kubeconfig`);
  writeFileSync(file, kc.exportConfig());
  const gw = await createKubeGateway({
    hubs: [{ name: 'hub', kubeconfig: file }],
    log: quietLog,
    clock: systemClock,
    cachedKinds: [],
  });
  try {
    return (await gw.hubStatus())[0]!;
  } finally {
    await gw.close();
  }
}

/**
 * A recording hub for one test file, started before its tests and closed after them, and the helpers above bound to
 * it and to a scratch directory (`name` names the directory).
 */
export function useRecordingHub(name: string) {
  const dir = mkdtempSync(join(tmpdir(), `beekeeper-${name}-`));
  let started: RecordingHub | undefined;
  beforeAll(async () => {
    started = await startRecordingHub();
  });
  afterAll(async () => {
    await started?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const at = (): RecordingHub => started ?? expect.fail('the recording hub has not started');
  const hub: RecordingHub = {
    get origin() {
      return at().origin;
    },
    get cert() {
      return at().cert;
    },
    get seen() {
      return at().seen;
    },
    get refused() {
      return at().refused;
    },
    close: () => at().close(),
  };
  return {
    hub,
    dir,
    kubeconfig: (user: Record<string, unknown>, cluster?: Record<string, unknown>) => kubeconfigFor(hub, user, cluster),
    trusting: () => trusting(hub),
    sentBy: (kc: KubeConfig, path?: string) => sentBy(hub, kc, path),
    failureOf,
    hubStatus: (kc: KubeConfig) => hubStatusWith(kc, dir),
  };
}

/**
 * An exec credential plugin in `dir` that counts its runs in a file and prints token exec-<run>, expiring when
 * `expireAt` said last (with no expirationTimestamp after `neverExpire`). Written when the file's tests start.
 */
export function credentialPlugin(dir: string) {
  const plugin = join(dir, 'credential-plugin.sh');
  beforeAll(() => {
    writeFileSync(join(dir, 'runs'), '0');
    writeFileSync(join(dir, 'expiry'), '');
    writeFileSync(
      plugin,
      [
        '#!/bin/sh',
        `n=$(( $(cat "${dir}/runs") + 1 ))`,
        `echo "$n" > "${dir}/runs"`,
        `expiry=$(cat "${dir}/expiry")`,
        `stamp=$([ -n "$expiry" ] && printf ',"expirationTimestamp":"%s"' "$expiry")`,
        `printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",` +
          `"status":{"token":"exec-%s"%s}}' "$n" "$stamp"`,
      ].join('\n'),
    );
    chmodSync(plugin, 0o755);
  });
  return {
    /** The kubeconfig user that runs it. */
    user: () => ({
      exec: { apiVersion: 'client.authentication.k8s.io/v1', command: plugin, interactiveMode: 'Never' },
    }),
    runs: () => Number(readFileSync(join(dir, 'runs'), 'utf8').trim() || 0),
    expireAt: (when: Date) => writeFileSync(join(dir, 'expiry'), when.toISOString()),
    neverExpire: () => writeFileSync(join(dir, 'expiry'), ''),
  };
}
