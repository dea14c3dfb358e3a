// The README's promise to a newcomer, kept as a real process: `npm ci && npm start` runs everything against the
// embedded Hive simulator, prints where the API is, and the curl tour and the CI section's CLI work against it as
// written. Only the names are made unique (so the file can share a Redis) and the simulator runs faster.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { curlCommands, datesAhead, readmeBlock, runCurl } from '../support/readme.js';
import {
  B,
  IDEMPOTENCY_KEY,
  NAME,
  ROOT,
  RUN,
  TOKEN,
  bash,
  cli,
  curl,
  exited,
  hasKubectl,
  output,
  server,
  startEmbedded,
  stopEmbedded,
  tail,
  tmp,
  until,
} from './embedded-default-bed.js';
import { CD, RESUMING, STOPPING, createBody, expectHiveSteps, stepsOf } from './embedded-default-fixtures.js';

beforeAll(startEmbedded, 50_000);
afterAll(stopEmbedded, 30_000);

describe('README: `npm start` and the curl tour, against the real process', () => {
  it('prints the API URL, the Swagger UI and the queue dashboard', () => {
    expect(output).toContain(`API:  ${B}/v1`);
    // Secure by default: one admin token, printed once as a line to paste, and the API refuses callers without it.
    expect(output.match(/^export BEEKEEPER_TOKEN=\S+$/gm)).toHaveLength(1);
    expect(output).toContain(`Docs: ${B}/docs`);
    expect(output).toContain(`Jobs: ${B}/admin/queues`);
  });

  it("writes the embedded hub's kubeconfig (0600) and prints the `export KUBECONFIG=…` line", () => {
    const path = join(ROOT, '.beekeeper/embedded.kubeconfig');
    expect(output).toContain(`export KUBECONFIG=${path}`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const doc = parseYaml(readFileSync(path, 'utf8'));
    expect(doc['current-context']).toBe('local');
    // kubectl only sends a bearer token over TLS.
    expect(doc.clusters[0].cluster.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it.skipIf(!hasKubectl)(
    `kubectl get cd -A works on the demo with that kubeconfig${hasKubectl ? '' : ' (SKIPPED: no kubectl on PATH)'}`,
    async () => {
      const kubeconfig = /export KUBECONFIG=(\S+)/.exec(output)![1]!;
      const kubectl = (...args: string[]) =>
        new Promise<string>((resolve, reject) => {
          execFile(
            'kubectl',
            args,
            { env: { ...process.env, KUBECONFIG: kubeconfig }, timeout: 20_000 },
            (err, stdout, stderr) =>
              err ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr}`)) : resolve(stdout),
          );
        });
      const listed = await kubectl(
        'get',
        'cd',
        '-A',
        '-o',
        'custom-columns=NAMESPACE:.metadata.namespace,NAME:.metadata.name',
        '--no-headers',
      );
      const rows = listed
        .trim()
        .split('\n')
        .map((line) => line.trim().split(/\s+/).join('/'));
      expect(rows).toContain('team-web/web-1');
      expect(rows.filter((r) => /^demo-aws-\w{5}\/demo-aws-\w{5}$/.test(r)).length).toBeGreaterThanOrEqual(1);
      expect(rows.some((r) => /^payments-aws-\w{5}\/payments-aws-\w{5}$/.test(r))).toBe(true);
      expect(await kubectl('get', 'clusterpools', '-n', 'demo', '-o', 'name')).toBe(
        'clusterpool.hive.openshift.io/demo-aws\nclusterpool.hive.openshift.io/payments-aws\n',
      );
    },
  );

  it('GET /v1/hubs: the embedded hub `local` is reachable and has the Hive CRDs', async () => {
    const hubs = await curl('GET', '/v1/hubs');
    expect(hubs.status).toBe(200);
    expect(hubs.json.items).toEqual([
      expect.objectContaining({ name: 'local', reachable: true, hiveCrdsPresent: true }),
    ]);
  });

  it('the demo pool demo/demo-aws (size 2, one running) gets a ready cluster', async () => {
    const pool = await until(
      '/v1/pools/local/demo/demo-aws',
      (a) => a.status === 200 && a.json.counts.ready >= 1,
      40_000,
    );
    expect(pool.json).toMatchObject({
      id: 'local/demo/demo-aws',
      size: 2,
      runningCount: 1,
      imageSet: 'openshift-v4.16.3',
    });
    const unclaimed = await curl('GET', '/v1/clusters?pool=demo/demo-aws&claimed=false');
    expect(unclaimed.status).toBe(200);
    expect(unclaimed.json.items.length).toBeGreaterThanOrEqual(1);
    expect(
      unclaimed.json.items.every(
        (c: { labels: Record<string, string> }) => c.labels['hive.openshift.io/clusterpool-name'] === 'demo-aws',
      ),
    ).toBe(true);
    const pools = await curl('GET', '/v1/pools');
    expect(pools.json.items.map((p: { id: string }) => p.id)).toContain('local/demo/demo-aws');
  }, 45_000);

  it('POST /v1/clusters?wait=120 with the README body creates and installs the cluster', async () => {
    const created = await curl('POST', '/v1/clusters?wait=120', createBody, { 'Idempotency-Key': IDEMPOTENCY_KEY });
    expect(created.status, created.text).toBe(200);
    expect(created.json.job).toMatchObject({
      type: 'cluster.create',
      state: 'completed',
      target: { hub: 'local', namespace: 'demo', name: NAME },
    });
    expect(stepsOf(created.json.job)).toEqual(
      expect.arrayContaining(['ClusterDeploymentCreated', 'Provisioning', 'Installed']),
    );

    // "Every POST honours Idempotency-Key": running the same command again is the same job, not a second cluster.
    const again = await curl('POST', '/v1/clusters?wait=120', createBody, { 'Idempotency-Key': IDEMPOTENCY_KEY });
    expect(again.json?.job?.id, `${again.status} ${again.text}`).toBe(created.json.job.id);
  }, 40_000);

  it('refuses a bad request with problem+json naming the field, and creates nothing', async () => {
    const badName = `bad-${RUN}`;
    const bad = await curl('POST', '/v1/clusters', {
      ...createBody,
      name: badName,
      compute: { replicas: -1, instanceType: 'm6i.2xlarge' },
    });
    expect(bad.status, bad.text).toBe(422);
    expect(bad.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(bad.text).toContain('replicas');
    expect((await curl('GET', `/v1/clusters/local/demo/${badName}`)).status).toBe(404);
  });

  it('GET the cluster: phase, power state, URLs, version, expiry; ?raw=true adds the ClusterDeployment', async () => {
    const cd = await curl('GET', CD);
    expect(cd.status).toBe(200);
    // The create job ends at "Installed"; Hive then reports the power state through the resume steps (as after
    // any install), so a newcomer who looks at once may see Resuming for a few seconds before Running.
    expect(['Running', 'Resuming']).toContain(cd.json.phase);
    expect(cd.json).toMatchObject({
      hub: 'local',
      namespace: 'demo',
      name: NAME,
      installed: true,
      powerState: { desired: 'Running' },
      apiURL: `https://api.${NAME}.demo.example.com:6443`,
      version: '4.16.3',
      labels: { team: 'payments' },
      hibernateAfter: '8h',
      expiry: { deleteAfter: '72h' },
    });
    expect(cd.json.consoleURL).toMatch(/^https:\/\//);
    const raw = await curl('GET', `${CD}?raw=true`);
    expect(raw.json.raw).toMatchObject({ kind: 'ClusterDeployment', metadata: { name: NAME, namespace: 'demo' } });

    const listed = await curl('GET', '/v1/clusters?hub=local&namespace=demo&limit=20');
    expect(listed.json.items.map((c: { name: string }) => c.name)).toContain(NAME);
    const payments = await curl('GET', '/v1/clusters?labelSelector=team%3Dpayments');
    expect(payments.json.items.map((c: { name: string }) => c.name)).toContain(NAME);
  });

  it('hibernate?wait=60 steps through Stopping, WaitingForMachinesToStop, Hibernating', async () => {
    const res = await curl('POST', `${CD}/hibernate?wait=60`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.job).toMatchObject({
      type: 'cluster.hibernate',
      state: 'completed',
      result: { powerState: 'Hibernating' },
    });
    expectHiveSteps(stepsOf(res.json.job), 'HibernateRequested', STOPPING);
    expect((await curl('GET', CD)).json).toMatchObject({
      phase: 'Hibernating',
      powerState: { observed: 'Hibernating' },
    });
    const hibernating = await curl('GET', '/v1/clusters?labelSelector=team%3Dpayments&powerState=Hibernating');
    expect(hibernating.json.items.map((c: { name: string }) => c.name)).toContain(NAME);
  }, 40_000);

  it('resume?wait=60 steps StartingMachines … WaitingForClusterOperators, Running', async () => {
    const res = await curl('POST', `${CD}/resume?wait=60`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.job).toMatchObject({
      type: 'cluster.resume',
      state: 'completed',
      result: { powerState: 'Running' },
    });
    expectHiveSteps(stepsOf(res.json.job), 'ResumeRequested', RESUMING);
    expect((await curl('GET', CD)).json).toMatchObject({ phase: 'Running', powerState: { observed: 'Running' } });
  }, 40_000);

  it('PUT expiry: {"expiresIn":"8h"} sets it about 8 h from now, {"expiresAt":null} clears it', async () => {
    const before = Date.now();
    const set = await curl('PUT', `${CD}/expiry`, { expiresIn: '8h' });
    expect(set.status, set.text).toBe(200);
    const at = Date.parse(set.json.cluster.expiry.expiresAt);
    // Hive's delete-after counts from creationTimestamp (whole seconds), so allow a few seconds either way.
    expect(Math.abs(at - (before + 8 * 3600_000))).toBeLessThan(60_000);
    expect((await curl('GET', CD)).json.expiry.expiresAt).toBe(set.json.cluster.expiry.expiresAt);

    const cleared = await curl('PUT', `${CD}/expiry`, { expiresAt: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.json.cluster.expiry).toBeUndefined();
    expect((await curl('GET', CD)).json.expiry).toBeUndefined();
  });

  it('kubeconfig and credentials of the cluster', async () => {
    const kc = await curl('GET', `${CD}/kubeconfig`);
    expect(kc.status).toBe(200);
    const doc = parseYaml(kc.text);
    expect(doc).toMatchObject({ kind: 'Config' });
    expect(doc.clusters[0].cluster.server).toBe(`https://api.${NAME}.demo.example.com:6443`);
    const creds = await curl('GET', `${CD}/credentials`);
    expect(creds.status).toBe(200);
    expect(creds.json).toMatchObject({ username: 'kubeadmin', apiURL: `https://api.${NAME}.demo.example.com:6443` });
    expect(creds.json.password).toEqual(expect.any(String));
  });

  it('CI: `beekeeper claim --pool demo-aws … --kubeconfig-out FILE --json`, then `release`', async () => {
    const kubeconfigFile = join(tmp, 'kubeconfig');
    const claimed = await cli([
      'claim',
      '--pool',
      'demo-aws',
      '--lifetime',
      '1h',
      '--wait',
      '2m',
      '--kubeconfig-out',
      kubeconfigFile,
      '--json',
    ]);
    expect(claimed.code, claimed.stderr).toBe(0);
    const claim = JSON.parse(claimed.stdout);
    expect(claim).toMatchObject({ pool: 'local/demo/demo-aws', phase: 'Running', lifetime: { lifetime: '1h' } });
    // The README's scripts read `.id` and `.cluster.apiURL`.
    expect(claim.id).toMatch(/^local\/demo\//);
    expect(claim.cluster.apiURL).toMatch(/^https:\/\/api\./);
    // "prints the claim id and its URL on stderr at once"
    expect(claimed.stderr).toContain(claim.id);
    expect(claimed.stderr).toContain(`${B}/v1/claims/${claim.id}`);
    // "The kubeconfig file is written with mode 0600", for the claimed cluster.
    expect(statSync(kubeconfigFile).mode & 0o777).toBe(0o600);
    expect(parseYaml(readFileSync(kubeconfigFile, 'utf8')).clusters[0].cluster.server).toBe(claim.cluster.apiURL);

    const released = await cli(['release', claim.id, '--json']);
    expect(released.code, released.stderr).toBe(0);
    const { job } = JSON.parse(released.stdout);
    expect(job.type).toBe('claim.release');
    // `GET /v1/jobs/<id>?wait=60`: the release job ends.
    const done = await curl('GET', `/v1/jobs/${encodeURIComponent(job.id)}?wait=60`);
    expect(done.status).toBe(200);
    expect(done.json.job).toMatchObject({ id: job.id, state: 'completed' });
  }, 60_000);

  it('the "Pools and claims" tour: pool summary, PATCH, claim by name and by attributes, wait, kubeconfig, extend, heartbeat, release', async () => {
    expect((await curl('GET', '/v1/pools')).json.items.map((p: { id: string }) => p.id)).toContain(
      'local/demo/demo-aws',
    );
    const pool = await curl('GET', '/v1/pools/local/demo/demo-aws');
    expect(pool.json).toMatchObject({ counts: expect.any(Object), problems: [], claimsWaiting: expect.any(Number) });
    const patched = await curl('PATCH', '/v1/pools/local/demo/demo-aws', { size: 3, runningCount: 1 });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({ size: 3, runningCount: 1 });

    const byName = await curl('POST', '/v1/claims', {
      pool: 'local/demo/demo-aws',
      lifetime: '2h',
      heartbeatTimeout: '15m',
    });
    expect(byName.status, byName.text).toBe(201);
    const byAttributes = await curl('POST', '/v1/claims', {
      selector: { platform: 'aws', version: '4.16' },
      lifetime: '2h',
    });
    expect(byAttributes.status, byAttributes.text).toBe(201);
    expect(byAttributes.json).toMatchObject({
      pool: 'local/demo/demo-aws',
      pickedBecause: expect.stringContaining('picked local/demo/demo-aws for platform=aws, version=4.16'),
    });

    const C = `/v1/claims/${byName.json.id}`;
    const running = await curl('GET', `${C}?wait=120`);
    expect(running.json.phase, running.text).toBe('Running');
    const events = await fetch(`${B}${C}/events`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    const reader = events.body!.getReader();
    let frame = '';
    while (!frame.includes('\n\n')) frame += Buffer.from((await reader.read()).value).toString();
    await reader.cancel();
    expect(frame).toMatch(/^event: claim\ndata: \{"id":"local\/demo\//);
    const kubeconfig = await curl('GET', `${C}/kubeconfig`);
    expect(parseYaml(kubeconfig.text).clusters[0].cluster.server).toBe(running.json.cluster.apiURL);
    const credentials = await curl('GET', `${C}/credentials`);
    expect(credentials.json).toMatchObject({
      apiURL: running.json.cluster.apiURL,
      webConsoleURL: running.json.cluster.webConsoleURL,
      username: 'kubeadmin',
    });
    const extended = await curl('PATCH', C, { extendBy: '1h' });
    expect(extended.json.lifetime.lifetime, extended.text).toBe('3h');
    const beat = await curl('POST', `${C}/heartbeat`);
    expect(beat.status, beat.text).toBe(200);
    expect(beat.json).toMatchObject({ claim: byName.json.id, timeoutSeconds: 900 });
    for (const id of [byName.json.id, byAttributes.json.id])
      expect((await curl('DELETE', `/v1/claims/${id}`)).status).toBe(202);
  }, 150_000);

  // The "Shell" example of "Ephemeral clusters in CI", run with bash as written; its selector matches the demo's
  // payments pool. Only what cannot run here is swapped: `make test-e2e`.
  const shellScript = (tests: string) => {
    const script = readmeBlock('### Shell', 'sh');
    for (const part of ['--selector platform=aws,version=4.17,team=payments', 'make test-e2e', 'trap cleanup EXIT'])
      expect(script).toContain(part);
    return script.replace('make test-e2e', tests);
  };
  const shellEnv = () => ({ BEEKEEPER_URL: B, BEEKEEPER_TOKEN: TOKEN, BEEKEEPER_HOME: ROOT });
  const claimOf = (stderr: string) => /claimed (\S+) from/.exec(stderr)?.[1];

  it('CI "Shell": claims, tests with the kubeconfig while heartbeating, and releases', async () => {
    // The tests see the claimed cluster's kubeconfig, and the heartbeat runs beside them.
    const run = await bash(
      shellScript(
        `sh -c 'grep -q "server: https://api\\." "$KUBECONFIG"' && echo "HEARTBEAT: $(ps -o args= -p "$heartbeat_pid")" && echo TESTS-PASSED`,
      ),
      shellEnv(),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('local/demo/payments-aws');
    expect(run.stdout).toMatch(/^testing on https:\/\/api\./m);
    expect(run.stdout).toContain('TESTS-PASSED');
    const id = claimOf(run.stderr)!;
    expect(run.stderr).toContain(`released ${id}`);
    const after = await curl('GET', `/v1/claims/${id}`);
    expect(after.status === 404 || after.json.phase === 'Releasing', after.text).toBe(true);
    // $heartbeat_pid is the heartbeat process itself, so the cleanup's `kill` stops it. (A shell function in the
    // background would leave the CLI running, keeping alive a claim that a failed release left behind.)
    expect(run.stdout).toMatch(new RegExp(`^HEARTBEAT: node \\S*bin/beekeeper\\.js heartbeat ${id} --every 60s$`, 'm'));
  }, 100_000);

  it('CI "Shell": failing tests still release the claim', async () => {
    const run = await bash(shellScript('false'), shellEnv());
    expect(run.code).not.toBe(0);
    const id = claimOf(run.stderr)!;
    expect(run.stderr).toContain(`released ${id}`);
    const after = await curl('GET', `/v1/claims/${id}`);
    expect(after.status === 404 || after.json.phase === 'Releasing', after.text).toBe(true);
  }, 100_000);

  it('CI "GitHub Actions" and "Tekton": valid YAML that claims, tests with the kubeconfig, and always releases', () => {
    const gha = parseYaml(readmeBlock('### GitHub Actions', 'yaml'));
    const steps: Array<{ name?: string; id?: string; if?: string; run?: string; env?: Record<string, string> }> =
      gha.jobs.e2e.steps;
    const claim = steps.find((st) => st.id === 'claim')!;
    expect(claim.run).toMatch(/\$BK claim .*--wait 45m --kubeconfig-out "\$RUNNER_TEMP\/kubeconfig" --json/s);
    expect(steps.find((st) => st.name === 'Run tests')!.env!.KUBECONFIG).toBe('${{ runner.temp }}/kubeconfig');
    const release = steps.at(-1)!;
    expect(release.if).toContain('always()');
    expect(release.run).toContain('$BK release "${{ steps.claim.outputs.id }}"');

    const task = parseYaml(readmeBlock('### Tekton', 'yaml'));
    expect(task).toMatchObject({ apiVersion: 'tekton.dev/v1', kind: 'Task' });
    const names = task.spec.steps.map((st: { name: string }) => st.name);
    expect(names).toEqual(['claim', 'test', 'release', 'verdict']);
    const [claimStep, testStep, releaseStep, verdict] = task.spec.steps;
    expect(claimStep.script).toContain('--kubeconfig-out /claim/kubeconfig --json');
    // The tests' failure must not skip the release: the step records its exit code and the verdict replays it.
    expect(testStep).toMatchObject({ onError: 'continue', env: [{ name: 'KUBECONFIG', value: '/claim/kubeconfig' }] });
    expect(releaseStep.script).toContain('release "$(cat /claim/id)"');
    expect(verdict.script).toContain('$(steps.step-test.exitCode.path)');
    expect(task.spec.sidecars[0].script).toContain('heartbeat "$(cat /claim/id)"');
  });

  // "Schedules, overrides and expiry", every command as written, on the demo's team-web/web-1. Only dates that
  // have passed since the README was written are moved ahead by whole years (an override must end in the future).
  it('the schedules section: schedule, preview, cluster schedule, dry run, override, expiry policy, sweep, extend, webhook, warnings', async () => {
    await until('/v1/clusters/local/team-web/web-1', (a) => a.status === 200 && a.json.installed === true, 40_000);
    const commands = await curlCommands(datesAhead(readmeBlock('## Schedules, overrides and expiry', 'sh')), {
      base: B,
      token: TOKEN,
      cwd: tmp,
    });
    expect(commands.length).toBe(11);
    const answers: Array<Awaited<ReturnType<typeof runCurl>>> = [];
    for (const command of commands) {
      const answer = await runCurl(command, B);
      expect(answer.status, `${answer.command}: ${answer.text.slice(0, 800)}`).toBeLessThan(300);
      answers.push(answer);
    }
    const by = (prefix: string) => answers.find((a) => a.command.startsWith(prefix))!;
    expect(by('GET /v1/clusters/local/team-web/web-1/schedule').json).toMatchObject({ schedule: 'office-hours' });
    expect(by('GET /v1/schedules/office-hours/preview').text).toContain('web-1');
    // Next March: the first weekday after Berlin's clock change opens at 07:00 CEST, 05:00 UTC.
    expect(by('GET /v1/schedules/office-hours/preview?from=').text).toContain('2027-03-29T05:00:00');
    expect(by('POST /v1/clusters/local/team-web/web-1/overrides').json).toMatchObject({ type: 'keepAwake' });
    const extended = by('POST /v1/clusters/local/team-web/web-1/expiry/extend').json;
    const created = Date.parse(
      (await curl('GET', '/v1/clusters/local/team-web/web-1?raw=true')).json.raw.metadata.creationTimestamp,
    );
    // delete-after 72h from the seed, plus 24h.
    expect(Date.parse(JSON.stringify(extended).match(/"expiresAt":"([^"]+)"/)![1]!) - created).toBe(96 * 3600_000);
  }, 60_000);

  it("GET /v1/jobs lists the tour's jobs, filterable by type and state", async () => {
    const hib = await curl('GET', '/v1/jobs?type=cluster.hibernate');
    expect(hib.status).toBe(200);
    expect(hib.json.items).toEqual([
      expect.objectContaining({
        type: 'cluster.hibernate',
        state: 'completed',
        target: expect.objectContaining({ name: NAME }),
      }),
    ]);
    const active = await curl('GET', '/v1/jobs?state=active&type=cluster.hibernate');
    expect(active.status).toBe(200);
    expect(active.json.items).toEqual([]);
    const some = await curl('GET', '/v1/jobs?limit=2');
    expect(some.json.items).toHaveLength(2);
    const all = await curl('GET', '/v1/jobs?limit=50');
    expect(all.json.items.map((j: { type: string }) => j.type)).toEqual(
      expect.arrayContaining(['cluster.create', 'cluster.resume', 'claim.release']),
    );
  });

  it('DELETE ?wait=120 deprovisions the cluster and it is gone', async () => {
    const res = await curl('DELETE', `${CD}?wait=120`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.job).toMatchObject({ type: 'cluster.delete', state: 'completed' });
    expect((await curl('GET', CD)).status).toBe(404);
  }, 40_000);

  it('sign-in: without the printed token the API answers 401 with a Bearer challenge; probes stay open', async () => {
    const anonymous = await fetch(`${B}/v1/clusters`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer realm="beekeeper"');
    const wrong = await fetch(`${B}/v1/clusters`, { headers: { authorization: 'Bearer not-the-token-0123456789' } });
    expect([wrong.status, wrong.headers.get('www-authenticate')]).toEqual([
      401,
      'Bearer realm="beekeeper", error="invalid_token"',
    ]);
    expect((await fetch(`${B}/healthz`)).status).toBe(200);
    expect((await curl('GET', '/v1/clusters')).status).toBe(200);
  });

  it('operations: /healthz, /readyz, /metrics, /openapi.json, /docs, /admin/queues', async () => {
    expect((await curl('GET', '/healthz')).status).toBe(200);
    const ready = await curl('GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.json).toMatchObject({ redis: 'ok', hubs: [{ name: 'local', reachable: true }] });
    const metrics = await curl('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain(
      'beekeeper_pool_clusters{hub="local",namespace="demo",pool="demo-aws",state="ready"}',
    );
    expect(metrics.text).toMatch(/beekeeper_jobs_finished_total\{[^}]*type="cluster\.create"/);
    expect(metrics.text).toContain('beekeeper_claim_wait_seconds');
    const openapi = await curl('GET', '/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.json.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.json.paths)).toEqual(expect.arrayContaining(['/v1/hubs', '/v1/clusters', '/v1/jobs']));
    const docs = await curl('GET', '/docs');
    expect([200, 302]).toContain(docs.status);
    if (docs.status === 200) expect(docs.text).toContain('Swagger UI');
    const queues = await curl('GET', '/admin/queues');
    expect((await fetch(`${B}/admin/queues`)).status).toBe(401);
    expect(queues.status).toBe(200);
    expect(queues.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('SIGTERM: the process shuts down gracefully and exits 0', async () => {
    server.kill('SIGTERM');
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 20_000));
    const result = await Promise.race([exited, timeout]);
    expect(result, tail()).toEqual({ code: 0, signal: null });
    expect(output).toContain('"msg":"stopped"');
    // The kubeconfig's token and port die with the process.
    expect(existsSync(join(ROOT, '.beekeeper/embedded.kubeconfig'))).toBe(false);
  }, 25_000);
});
