// `npm run sim`: N Hive hubs (Kubernetes API server doubles + Hive controllers) in one process, a kubeconfig
// with one context per hub, exactly one `ready` line on stdout once they serve, and a clean stop on SIGINT/SIGTERM.
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { systemClock } from '../clock.js';
import { loadConfig, withEmbeddedHub } from '../config.js';
import { createLogger } from '../logger.js';
import { prepareEmbeddedHub } from '../system/embedded-hub.js';
import { startSimulator, type Simulator, type SimulatorOptions } from '../sim/simulator.js';
import { type Durations, defaultDurations, durationNames } from '../sim/durations.js';
import { formatGoDuration, parseGoDuration } from '../sim/hive/go-values.js';
import { validateFaultSpec } from '../sim/apiserver/faults.js';
import { writeKubeconfigFile } from '../system/kubeconfig-file.js';
import { exitOnceWritten } from './exit-once-written.js';

const HELP = `Usage: npm run sim -- [options]

Starts simulated OpenShift Hive hubs: Kubernetes API servers with the Hive CRDs and webhooks, driven by
simulated Hive controllers. Prints "ready" when every hub serves; stop with Ctrl-C.

Options:
  --hubs <n>                 number of hubs (default 1); contexts are hub-1, hub-2, ...
  --hub-names <a,b,...>      explicit hub (context) names instead of hub-1..hub-N
  --kubeconfig-out <path>    write a kubeconfig with one context per hub (current context: the first) once
                             every hub serves; a stale one there is removed at start
  --advertise-host <host>    the host the kubeconfig's servers name, and a name the certificate is valid for:
                             how clients elsewhere reach the hubs, e.g. a compose service name (default: the
                             listen address; 127.0.0.1 when listening on 0.0.0.0)
  --localhost-kubeconfig-out <path>
                             also write a kubeconfig whose servers are https://127.0.0.1:<port>, for kubectl on
                             the machine that publishes the ports (docker compose)
  --install-beekeeper        install Beekeeper's own CRDs (deploy/crds) and its namespace \`beekeeper\` on the
                             first hub, as its state hub needs (\`kubectl apply -f deploy/crds/\`)
  --seed <demo|none>         demo: the README's demo data on every hub: ClusterImageSets, pools demo/demo-aws
                             (4.16, size 2) and demo/payments-aws (4.17, size 1), cluster team-web/web-1
                             (default none)
  --speed <factor>           divide every simulated duration (default 1 = real Hive timing; 60 = an install
                             takes ~40 s; 1000 = ~2.4 s)
  --duration <name>=<value>  override one phase before --speed, as a Go duration (10m, 90s) or milliseconds;
                             repeatable. Names: ${durationNames.join(', ')}
  --install-failures <n|always>
                             make the first n provision attempts of every cluster fail (default 0); one
                             cluster: annotation sim.hive.openshift.io/install-failures
  --delete-protection        behave as HiveConfig deleteProtection: enabled (protected-delete on install)
  --no-controllers           serve the APIs only, without simulated Hive controllers
  --no-webhooks              without Hive's validating admission webhooks either: a bare API server with the
                             Hive CRDs, as a contract-suite target (KUBE_CONTRACT_KUBECONFIG)
  --faults <json>            fault injection spec (latency, errors, watchDrops, conflicts), see docs/simulator.md
  --max-inflight <n>         an APF-like limit per hub: beyond n requests in flight (watches not counted) answer
                             429 with Retry-After: 1, as kube-apiserver's max-in-flight filter (default: none)
  --plain-http               serve plain HTTP instead of HTTPS with a self-signed certificate (kubectl only
                             sends tokens over HTTPS, so keep the default for a kubectl session)
  --host <addr>              listen address (default 127.0.0.1)
  --port <n>                 first hub's port, hub i gets port+i (default 0 = random free ports)
  --log-level <level>        fatal|error|warn|info|debug|silent (default info); logs go to stderr
  -h, --help                 show this help
`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${HELP}`);
  process.exit(2);
}

function parseDurationFlag(text: string): [keyof Durations, number] {
  const eq = text.indexOf('=');
  const name = text.slice(0, eq) as keyof Durations;
  const value = text.slice(eq + 1);
  if (eq < 0 || !durationNames.includes(name))
    fail(`--duration ${text}: expected <name>=<value> with name one of ${durationNames.join(', ')}`);
  if (/^\d+(\.\d+)?$/.test(value)) return [name, Number(value)];
  try {
    return [name, parseGoDuration(value)];
  } catch {
    return fail(`--duration ${text}: "${value}" is neither milliseconds nor a Go duration like 10m or 90s`);
  }
}

interface Options {
  sim: SimulatorOptions;
  kubeconfigOut?: string;
  localhostKubeconfigOut?: string;
  installBeekeeper: boolean;
  logLevel: string;
}

function parseOptions(argv: string[]): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        hubs: { type: 'string' },
        'hub-names': { type: 'string' },
        'kubeconfig-out': { type: 'string' },
        'advertise-host': { type: 'string' },
        'localhost-kubeconfig-out': { type: 'string' },
        'install-beekeeper': { type: 'boolean' },
        seed: { type: 'string' },
        speed: { type: 'string' },
        duration: { type: 'string', multiple: true },
        'install-failures': { type: 'string' },
        'delete-protection': { type: 'boolean' },
        'no-controllers': { type: 'boolean' },
        'no-webhooks': { type: 'boolean' },
        'plain-http': { type: 'boolean' },
        faults: { type: 'string' },
        'max-inflight': { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        'log-level': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (err) {
    return fail((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const int = (flag: string, v: string | undefined, min: number) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) fail(`--${flag} must be an integer >= ${min}, got "${v}"`);
    return n;
  };
  const sim: SimulatorOptions = {};
  sim.hubs = int('hubs', values.hubs, 1);
  if (values['hub-names'])
    sim.hubNames = values['hub-names']
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (values.seed !== undefined) {
    if (values.seed !== 'demo' && values.seed !== 'none') fail(`--seed must be demo or none, got "${values.seed}"`);
    sim.seed = values.seed;
  }
  if (values.speed !== undefined) {
    const speed = Number(values.speed);
    if (!(speed > 0) || !Number.isFinite(speed)) fail(`--speed must be a positive number, got "${values.speed}"`);
    sim.speed = speed;
  }
  if (values.duration) sim.durations = Object.fromEntries(values.duration.map(parseDurationFlag));
  const failures = values['install-failures'];
  if (failures !== undefined)
    sim.installFailures = failures === 'always' ? 'always' : int('install-failures', failures, 0);
  sim.deleteProtection = values['delete-protection'] ?? false;
  sim.controllers = !values['no-controllers'];
  sim.webhooks = !values['no-webhooks'];
  if (values.faults) {
    try {
      sim.faults = validateFaultSpec(JSON.parse(values.faults));
    } catch (err) {
      fail(`--faults: ${(err as Error).message}`);
    }
  }
  sim.maxInFlight = int('max-inflight', values['max-inflight'], 1);
  sim.tls = !values['plain-http'];
  sim.host = values.host;
  sim.port = int('port', values.port, 0);
  sim.advertiseHost = values['advertise-host'];
  const logLevel = values['log-level'] ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel))
    fail(`--log-level: unknown level "${logLevel}"`);
  return {
    sim,
    kubeconfigOut: values['kubeconfig-out'],
    localhostKubeconfigOut: values['localhost-kubeconfig-out'],
    installBeekeeper: values['install-beekeeper'] ?? false,
    logLevel,
  };
}

const {
  sim: options,
  kubeconfigOut,
  localhostKubeconfigOut,
  installBeekeeper,
  logLevel,
} = parseOptions(process.argv.slice(2));
const log = createLogger({ level: logLevel as any, destination: process.stderr, pretty: false }).child({
  component: 'sim',
});
options.log = (obj, msg) => log.info(obj, msg);

// The kubeconfig appears only once the hubs serve (a health check may wait for it): one from an earlier run would
// name ports and tokens that died with it.
for (const path of [kubeconfigOut, localhostKubeconfigOut]) if (path) rmSync(path, { force: true });
// A failed start ends the process once its fatal line is out.
async function startOrExit(): Promise<Simulator> {
  try {
    const sim = await startSimulator(options);
    if (installBeekeeper) {
      // This process reaches the first hub at its listen address, whatever the kubeconfig advertises.
      const first = sim.hubs[0]!;
      const listening = new URL(first.url).hostname.replace(/^\[|\]$/g, '');
      const config = withEmbeddedHub(loadConfig({}), {
        name: first.name,
        kubeconfigData: sim.kubeconfigYaml(listening),
      });
      await prepareEmbeddedHub({
        hub: config.hubs[0]!,
        namespace: config.stateNamespace,
        clock: systemClock,
        log: log.child({ component: 'kube' }),
      });
    }
    return sim;
  } catch (err) {
    log.fatal({ err }, 'simulator failed to start');
    return exitOnceWritten(1);
  }
}
const sim = await startOrExit();
if (kubeconfigOut) writeKubeconfigFile(kubeconfigOut, sim.kubeconfigYaml());
if (localhostKubeconfigOut) writeKubeconfigFile(localhostKubeconfigOut, sim.kubeconfigYaml('127.0.0.1'));
const d = { ...defaultDurations, ...options.durations };
log.info(
  {
    hubs: sim.hubs.map((h) => ({ name: h.name, url: h.url })),
    kubeconfigOut,
    seed: options.seed ?? 'none',
    speed: options.speed ?? 1,
    install: formatGoDuration(
      Math.round((d.imageSet + d.provisionInitializing + d.provisionRunning) / (options.speed ?? 1)),
    ),
  },
  'simulator serving',
);
process.stdout.write('ready\n');

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) process.exit(1);
  stopping = true;
  log.info({ signal }, 'stopping simulator');
  await sim.close();
  await exitOnceWritten(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
