// Replays every exchange recorded from a real kube-apiserver (../shared/kube-golden) against the double and
// compares status, the headers that matter and the body, with the README's volatile fields normalised.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { startApiServer, type ApiServer } from '../../src/sim/apiserver/index.js';
import { rawCall, type RawResponse } from './support/raw-http.js';
import { applyVolatile, byName } from './support/golden-normalise.js';
import { after, before, watchActions, type Call } from './support/golden-setup.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const goldenDir = path.resolve(repoRoot, '../shared/kube-golden');
const crdDir = path.resolve(repoRoot, '../shared/hive/crds');
const available = existsSync(goldenDir) && existsSync(crdDir);

const SA_TOKEN = 'no-rbac-token';

interface Golden {
  title: string;
  request: { method: string; path: string; headers: Record<string, string>; body: unknown };
  response: { status: number; headers: Record<string, string | string[]>; body?: any; lines?: string[]; linesTruncated?: number };
  auth?: string; volatile?: string[]; trimmed?: string;
}

function loadUpstreamCrds(): object[] {
  return readdirSync(crdDir).filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => parseAllDocuments(readFileSync(path.join(crdDir, f), 'utf8')).map((d) => d.toJS()))
    .filter((d) => d?.kind === 'CustomResourceDefinition');
}

describe.skipIf(!available)('golden exchanges replayed against the double', () => {
  let server: ApiServer;
  const rvMap = new Map<string, string>();
  const files = available ? readdirSync(goldenDir).filter((f) => /^\d+-.*\.json$/.test(f)).sort() : [];

  beforeAll(async () => {
    server = await startApiServer({ token: 'admin', crds: loadUpstreamCrds(),
      users: [{ token: SA_TOKEN, username: 'system:serviceaccount:golden:no-rbac', groups: ['system:serviceaccounts', 'system:serviceaccounts:golden'] }] });
  });
  afterAll(async () => { await server?.close(); });

  const call: Call = async (method, p, body, contentType) => {
    const res = await rawCall({ method, url: server.url + p, token: 'admin', body: body === undefined ? undefined : JSON.stringify(body),
      contentType: body === undefined ? undefined : contentType ?? 'application/json' });
    return { status: res.status, body: safeJson(res.text) };
  };

  /** Recorded resourceVersion -> live one, learned from every compared answer. */
  function learn(expected: any, actual: any) {
    if (!expected || !actual || typeof expected !== 'object' || typeof actual !== 'object') return;
    const e = expected.metadata?.resourceVersion, a = actual.metadata?.resourceVersion;
    if (typeof e === 'string' && typeof a === 'string' && /^\d+$/.test(e)) rvMap.set(e, a);
    if (Array.isArray(expected.items) && Array.isArray(actual.items)) {
      for (const item of expected.items) learn(item, actual.items.find((x: any) => x?.metadata?.name === item?.metadata?.name));
    }
  }

  const liveRv = (recorded: string) => rvMap.get(recorded) ?? (Number(recorded) >= 1_000_000 ? recorded : '1');

  function substitute(g: Golden): { path: string; body?: string } {
    const url = new URL(g.request.path, 'http://x');
    const rv = url.searchParams.get('resourceVersion');
    if (rv && rv !== '0') url.searchParams.set('resourceVersion', liveRv(rv));
    const cont = url.searchParams.get('continue');
    if (cont) {
      const token = JSON.parse(Buffer.from(cont, 'base64url').toString('utf8'));
      token.rv = Number(liveRv(String(token.rv)));
      url.searchParams.set('continue', Buffer.from(JSON.stringify(token)).toString('base64url'));
    }
    const t = url.searchParams.get('timeoutSeconds');
    if (t && Number(t) > 2) url.searchParams.set('timeoutSeconds', '2'); // keep the suite fast; bookmarks still come before the end
    let body = g.request.body;
    if (body && typeof body === 'object' && (body as any).metadata?.resourceVersion) {
      body = structuredClone(body);
      (body as any).metadata.resourceVersion = liveRv((body as any).metadata.resourceVersion);
    }
    return { path: url.pathname + url.search, body: body === null || body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) };
  }

  function tokenFor(auth: string | undefined) {
    if (!auth || auth.startsWith('no Authorization')) return undefined;
    if (auth.includes('invalid token')) return 'not-a-known-token';
    if (auth.includes('ServiceAccount golden/no-rbac')) return SA_TOKEN;
    return 'admin';
  }

  for (const file of files) {
    const n = Number(file.slice(0, 2));
    it(file, async () => {
      const g: Golden = JSON.parse(readFileSync(path.join(goldenDir, file), 'utf8'));
      await before[n]?.(call);
      if (n === 60) server.compact(); // the recording compacted etcd before 59-61 (the watch cache kept 58)
      if (n === 77) await waitFor(async () => (await call('GET', '/api/v1/namespaces/golden-term')).body?.status?.conditions);
      if (n === 56) rvMap.set(new URL(g.request.path, 'http://x').searchParams.get('resourceVersion')!, (await call('GET', '/apis/hive.openshift.io/v1/namespaces/golden/clusterdeployments')).body.metadata.resourceVersion);
      const { path: p, body } = substitute(g);
      let started: () => void = () => {};
      const startedP = new Promise<void>((r) => (started = r));
      const resP = rawCall({ method: g.request.method, url: server.url + p, token: tokenFor(g.auth), body,
        contentType: g.request.headers['content-type'], onStart: started });
      if (n === 56) { await startedP; await watchActions(call); }
      const res = await resP;
      compare(n, g, res);
      await after[n]?.(call);
    });
  }

  function compare(n: number, g: Golden, res: RawResponse) {
    expect(res.status, g.title).toBe(g.response.status);
    for (const h of ['content-type', 'warning', 'retry-after']) expect(res.headers[h], `${h} header`).toEqual(g.response.headers[h]);
    if (g.response.lines) return compareLines(n, g, res);
    let expected = structuredClone(g.response.body);
    let actual = typeof expected === 'string' ? res.text : safeJson(res.text);
    learn(expected, actual);
    ({ expected, actual } = normalise(n, g, expected, actual));
    expect(actual).toEqual(expected);
  }

  function compareLines(n: number, g: Golden, res: RawResponse) {
    const parse = (lines: string[]) => lines.filter(Boolean).map((l) => JSON.parse(l));
    let expected = parse(g.response.lines!);
    let actual = parse(res.text.split('\n'));
    // Bookmarks: at least one when asked for, their count varies (README).
    const bookmarks = actual.filter((e) => e.type === 'BOOKMARK');
    if (expected.some((e) => e.type === 'BOOKMARK')) expect(bookmarks.length).toBeGreaterThan(0);
    expected = expected.filter((e) => e.type !== 'BOOKMARK');
    actual = actual.filter((e) => e.type !== 'BOOKMARK');
    if (g.response.linesTruncated) actual = actual.slice(0, expected.length);
    if (n === 57) { expected.sort((a, b) => byName(a.object, b.object)); actual.sort((a, b) => byName(a.object, b.object)); }
    expected.forEach((e, i) => learn(e.object, actual[i]?.object));
    applyVolatile(g.volatile ?? [], { lines: expected }, { lines: actual });
    if (n === 59) for (const e of [...expected, ...actual]) e.object.message = e.object.message.replace(/\(\d+\)$/, '(N)');
    if (n === 59) actual.forEach((e) => (e.object.message = e.object.message.replace(/version: \d+/, 'version: 2')));
    expect(actual).toEqual(expected);
  }

  function normalise(n: number, g: Golden, expected: any, actual: any) {
    applyVolatile(g.volatile ?? [], { body: expected }, { body: actual });
    if (n === 2) actual.serverAddressByClientCIDRs = expected.serverAddressByClientCIDRs; // the real server's address
    if (n === 3) {
      // Trimmed golden; the double serves no apps group (no workloads), so compare the groups both have.
      const names = new Set(actual.groups.map((x: any) => x.name));
      expected.groups = expected.groups.filter((x: any) => names.has(x.name));
      const keep = new Set(expected.groups.map((x: any) => x.name));
      actual.groups = actual.groups.filter((x: any) => keep.has(x.name));
    }
    if (n === 4) { expected.resources.sort(byName); actual.resources.sort(byName); }
    if (n === 5) {
      const keep = new Set(expected.resources.map((r: any) => r.name));
      actual.resources = actual.resources.filter((r: any) => keep.has(r.name));
    }
    if (n === 16) {
      for (const x of [expected, actual]) {
        x.details.causes.sort((a: any, b: any) => a.field.localeCompare(b.field));
        x.message = x.message.replace(/\[.*\]$/, '[...]');
      }
    }
    if (n === 55) { expected.items.sort(byName); actual.items.sort(byName); }
    if (n === 62) actual.message = actual.message.replace(/\d+$/, expected.message.match(/\d+$/)[0]);
    if (n === 60) { expected.metadata.continue = '<token>'; if (actual?.metadata?.continue) actual.metadata.continue = '<token>'; }
    if (n === 62 || n === 59 || n === 61) {
      if (typeof actual?.message === 'string') actual.message = actual.message.replace(/resource version: \d+/, `resource version: ${expected.message.match(/resource version: (\d+)/)?.[1]}`);
    }
    if (n === 73) actual.message = actual.message.replace(/in record \([^)]*\)/, expected.message.match(/in record \([^)]*\)/)[0]); // a random uid
    if (n === 87) for (const x of [expected, actual]) x.metadata.name = String(x.metadata.name).replace(/^cd-gen-.{5}$/, 'cd-gen-?????');
    return { expected, actual };
  }
});

function safeJson(text: string): any {
  try { return JSON.parse(text); } catch { return text; }
}

async function waitFor(check: () => Promise<unknown>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
