// Replays every exchange recorded from a real kube-apiserver (test/fixtures/kube-golden) against the double, with
// the upstream Hive CRDs (when they are beside the clone) and with our own, and against a real API server when
// KUBE_CONTRACT_KUBECONFIG is set. Compares status, the headers that matter and the body, with the README's
// volatile fields normalised. Only the kubeconfig is used, so any server can be the target.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/sim/apiserver/index.js';
import { hiveCrds } from '../../src/sim/crds/index.js';
import { KubeConfig } from '@kubernetes/client-node';
import type { RawResponse } from './support/raw-http.js';
import { kubeHttp, type Auth, type KubeHttp } from './support/kube-http.js';
import { applyVolatile, byName } from './support/golden-normalise.js';
import { after, before, cleanUp, goldenNamespaces, watchActions, type Call } from './support/golden-setup.js';
import { golden, goldenFiles, type Golden } from './support/goldens.js';
import { contractTargets, ensureHiveCrds, realKubeConfig } from './support/target.js';
import { needs } from '../support/needs.js';
import { upstreamCrds } from '../support/upstream-crds.js';

/** Exchanges a target cannot reproduce, and why. */
function cannotReplay(target: string, n: number): string | undefined {
  if (target === 'real' && (n === 60 || n === 61)) {
    return 'needs an etcd compaction between the requests, which only the double can do on demand (ApiServer.compact)';
  }
  return undefined;
}

/** Kinds only the upstream CRDs serve: our own CRDs (src/sim/crds) do not model them, so discovery lacks them. */
const UPSTREAM_ONLY = ['syncidentityproviders'];
const UPSTREAM_ONLY_REASON =
  'our own CRDs (src/sim/crds) do not serve SyncIdentityProvider (the simulator copies it on relocation only from servers that have it)';

for (const target of contractTargets()) {
  describe(`golden exchanges replayed against ${target.name}`, needs(target.missing), () => {
    let double: ApiServer | undefined;
    let http: KubeHttp;
    let saToken = '';
    const rvMap = new Map<string, string>();
    const uidMap = new Map<string, string>();

    beforeAll(async () => {
      let kc: KubeConfig;
      if (target.name === 'real') {
        kc = realKubeConfig();
        await ensureHiveCrds(kc);
      } else {
        double = await startApiServer({ crds: target.name === 'double/upstream' ? upstreamCrds() : hiveCrds() });
        kc = new KubeConfig();
        kc.loadFromString(JSON.stringify(double.kubeconfig('golden')));
      }
      http = kubeHttp(kc);
      // A real server may still hold what an earlier run left behind; the recording started from a wiped etcd.
      if (!double) await cleanUp(call);
    });
    afterAll(async () => {
      if (double) await double.close();
      else if (http) await cleanUp(call);
    });

    const call: Call = async (method, p, body, contentType) => {
      const res = await http.call({
        method,
        path: p,
        body: body === undefined ? undefined : JSON.stringify(body),
        contentType: body === undefined ? undefined : (contentType ?? 'application/json'),
      });
      return { status: res.status, body: safeJson(res.text) };
    };

    /** Recorded resourceVersion (and uid) -> live one, learned from every compared answer. */
    function learn(expected: any, actual: any) {
      if (!expected || !actual || typeof expected !== 'object' || typeof actual !== 'object') return;
      const e = expected.metadata?.resourceVersion,
        a = actual.metadata?.resourceVersion;
      if (typeof e === 'string' && typeof a === 'string' && /^\d+$/.test(e)) rvMap.set(e, a);
      const eu = expected.metadata?.uid,
        au = actual.metadata?.uid;
      if (typeof eu === 'string' && typeof au === 'string') uidMap.set(eu, au);
      if (Array.isArray(expected.items) && Array.isArray(actual.items)) {
        for (const item of expected.items)
          learn(
            item,
            actual.items.find((x: any) => x?.metadata?.name === item?.metadata?.name),
          );
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
      if (body && typeof body === 'object' && (body.metadata?.resourceVersion || uidMap.has(body.metadata?.uid))) {
        // A PUT carries the object as it was read: its resourceVersion and uid are preconditions on the live one.
        body = structuredClone(body);
        if (body.metadata.resourceVersion) body.metadata.resourceVersion = liveRv(body.metadata.resourceVersion);
        if (uidMap.has(body.metadata.uid)) body.metadata.uid = uidMap.get(body.metadata.uid);
      }
      return {
        path: url.pathname + url.search,
        body: body === null || body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      };
    }

    async function authFor(auth: string | undefined): Promise<Auth> {
      if (!auth || auth.startsWith('no Authorization')) return 'anonymous';
      if (auth.includes('invalid token')) return { token: 'not-a-known-token' };
      if (auth.includes('ServiceAccount golden/no-rbac')) {
        // The recording used a TokenRequest token of that ServiceAccount (golden 91 notes); so does the replay.
        if (!saToken) {
          await call('POST', '/api/v1/namespaces/golden/serviceaccounts', {
            apiVersion: 'v1',
            kind: 'ServiceAccount',
            metadata: { name: 'no-rbac' },
          });
          const issued = await call('POST', '/api/v1/namespaces/golden/serviceaccounts/no-rbac/token', {
            apiVersion: 'authentication.k8s.io/v1',
            kind: 'TokenRequest',
            spec: {},
          });
          expect(issued.status, 'TokenRequest').toBe(201);
          saToken = issued.body.status.token;
        }
        return { token: saToken };
      }
      return 'admin';
    }

    for (const file of goldenFiles()) {
      const n = Number(file.slice(0, 2));
      if (n === 4 && target.name === 'double/project') {
        it(`${file}: the upstream-only kinds ${UPSTREAM_ONLY.join(', ')}`, needs(UPSTREAM_ONLY_REASON), () => {});
      }
      it(file, needs(cannotReplay(target.name, n)), async () => {
        const g = golden(n);
        await before[n]?.(call);
        // The recording compacted etcd before 58-61; the watch cache still held the events 58 asks for.
        if (n === 58) double?.compact();
        if (n === 77)
          await waitFor(async () => (await call('GET', '/api/v1/namespaces/golden-term')).body?.status?.conditions);
        if (n === 56)
          rvMap.set(
            new URL(g.request.path, 'http://x').searchParams.get('resourceVersion')!,
            (await call('GET', '/apis/hive.openshift.io/v1/namespaces/golden/clusterdeployments')).body.metadata
              .resourceVersion,
          );
        const { path: p, body } = substitute(g);
        let started: () => void = () => {};
        const startedP = new Promise<void>((r) => (started = r));
        const resP = http.call({
          method: g.request.method,
          path: p,
          auth: await authFor(g.auth),
          body,
          contentType: g.request.headers['content-type'],
          onStart: started,
        });
        if (n === 56) {
          await startedP;
          await watchActions(call);
        }
        const res = await resP;
        compare(n, g, res);
        await after[n]?.(call);
      });
    }

    function compare(n: number, g: Golden, res: RawResponse) {
      expect(res.status, g.title).toBe(g.response.status);
      for (const h of ['content-type', 'warning', 'retry-after'])
        expect(res.headers[h], `${h} header`).toEqual(g.response.headers[h]);
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
      if (n === 57) {
        expected.sort((a, b) => byName(a.object, b.object));
        actual.sort((a, b) => byName(a.object, b.object));
      }
      expected.forEach((e, i) => learn(e.object, actual[i]?.object));
      applyVolatile(g.volatile ?? [], { lines: expected }, { lines: actual });
      if (n === 59)
        for (const e of [...expected, ...actual]) e.object.message = e.object.message.replace(/\(\d+\)$/, '(N)');
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
      if (n === 4) {
        if (target.name === 'double/project')
          expected.resources = expected.resources.filter((r: any) => !UPSTREAM_ONLY.includes(r.name.split('/')[0]));
        expected.resources.sort(byName);
        actual.resources.sort(byName);
      }
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
      if (n === 55) {
        expected.items.sort(byName);
        actual.items.sort(byName);
      }
      // A shared real server holds objects of its own: compare what the recording's namespaces and names hold.
      if (!double && Array.isArray(actual?.items) && (n === 54 || n === 81 || n === 86)) {
        const names = new Set(expected.items.map((i: any) => i.metadata.name));
        actual.items = actual.items.filter(
          (i: any) =>
            goldenNamespaces.includes(i.metadata.namespace) || (!i.metadata.namespace && names.has(i.metadata.name)),
        );
      }
      if (n === 62) actual.message = actual.message.replace(/\d+$/, expected.message.match(/\d+$/)[0]);
      if (n === 60) {
        expected.metadata.continue = '<token>';
        if (actual?.metadata?.continue) actual.metadata.continue = '<token>';
      }
      if (n === 62 || n === 59 || n === 61) {
        if (typeof actual?.message === 'string')
          actual.message = actual.message.replace(
            /resource version: \d+/,
            `resource version: ${expected.message.match(/resource version: (\d+)/)?.[1]}`,
          );
      }
      if (n === 73)
        actual.message = actual.message.replace(
          /in record \([^)]*\)/,
          expected.message.match(/in record \([^)]*\)/)[0],
        ); // a random uid
      if (n === 87)
        for (const x of [expected, actual])
          x.metadata.name = String(x.metadata.name).replace(/^cd-gen-.{5}$/, 'cd-gen-?????');
      return { expected, actual };
    }
  });
}

function safeJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function waitFor(check: () => Promise<unknown>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
