// `beekeeper <command> …`: global flags, dispatch, and the exit code contract for CI scripts:
// 0 ok, 1 failure, 2 usage, 3 timed out waiting, 128+N interrupted by signal N.
import { UsageError } from './args.js';
import { ApiError, createClient } from './client.js';
import * as commands from './commands.js';
import { audit } from './audit.js';
import { relocate, relocation, relocations } from './relocate.js';
import { teams, whoami } from './teams.js';
import { token } from './token.js';
import { version } from './version.js';
import { EXIT, interruptedCode, type CliContext } from './context.js';

export const DEFAULT_URL = 'http://127.0.0.1:8080';

export const USAGE = `beekeeper: ephemeral OpenShift clusters from Hive pools, for CI

usage: beekeeper <command> [flags]

  claim      --pool P | --selector key=value[,key=value]…   claim a cluster
             [--lifetime 2h] [--wait 45m] [--kubeconfig-out FILE] [--heartbeat-timeout 10m]
             [--name N] [--subject User:alice|Group:g|ServiceAccount:sa:ns] [--keep-on-timeout]
             selector keys: hub platform region version architecture owner team, others are pool labels
             with --wait: heartbeats while waiting; on timeout, interrupt or failure releases the claim
             (exit 3 / 128+N / 1) and prints nothing on stdout: stdout has a claim only if you hold it
  status     CLAIM [--wait 10m]                 where the claim stands and why
  heartbeat  CLAIM [--every 60s] [--once]       keep a claim alive until killed
  extend     CLAIM --by 1h | --lifetime 6h      extend the lifetime (refused beyond the maximum)
             [--as NAME] [--reason TEXT]        who and why, recorded in the claim's lifetime history
             (--by is the time to add; --as is who, default the API token's holder)
  release    CLAIM [--wait 30m]                 release now; deprovision continues as a job (gone already: exit 0)
  kubeconfig CLAIM [--out FILE]                 the claimed cluster's kubeconfig
  hibernate  CLUSTER [--wait 30m]               hibernate a cluster
  resume     CLUSTER [--wait 30m]               resume a cluster
  relocate   --from HUB --to HUB                 move clusters to another hub (Hive's ClusterRelocate)
             --cluster NS/NAME… | --selector key=value[,…] --namespace NS… --team T --pool NS/NAME | --all
             [--wave N] [--pause 10m] [--dry-run] [--skip-failed] [--wait 2h] [--as NAME]
             (--all: every cluster of the --from hub; --wave-size N is the same as --wave N)
             prints the preflight table (exit 1 when a cluster fails it, unless --skip-failed);
             with --wait follows the waves and exits 0 once Succeeded, 1 Failed/Aborted, 3 still running
  relocations [ID] [--phase P]                  relocations, newest first, or one with each cluster's state
  relocation status ID [--wait 1h]              where each cluster of a relocation is
  relocation abort ID [--wait 30s] [--as NAME]  stop further waves, undo in-flight moves, say where each cluster is
  whoami                                        who the token signs in as: name, teams and roles, platform admin
  teams      [NAME]                             your teams (platform admin: all) with quotas and use (used/limit)
  audit      [--actor A] [--since 1h] [--until T] [--object HUB[/NS[/NAME]]] [--team T] [--action OP]
             [--result allowed|refused|failed] [--limit 50]   the audit trail, newest first (admins)

  token new  --name N [--team T --role R]       a fresh API token and its configuration entry (its SHA-256 only);
             needs no server (role: viewer, operator, admin; none and no team: platform-admin)
  version    [--client]                         this CLI's version and the server's (GET /version); --client: no server

  CLAIM and CLUSTER are hub/namespace/name.
global flags: --url URL (env BEEKEEPER_URL, default ${DEFAULT_URL}), --token T (env BEEKEEPER_TOKEN), --json, --help
exit codes: 0 ok, 1 failure, 2 usage, 3 timed out waiting, 128+N ended by signal N (130 SIGINT, 143 SIGTERM,
  129 SIGHUP; heartbeat, which runs until stopped, exits 0)`;

const COMMANDS: Record<string, (ctx: CliContext, args: string[]) => Promise<number>> = {
  claim: commands.claim,
  status: commands.status,
  heartbeat: commands.heartbeat,
  extend: commands.extend,
  release: commands.release,
  kubeconfig: commands.kubeconfig,
  hibernate: commands.power('hibernate'),
  resume: commands.power('resume'),
  relocate,
  relocations,
  relocation,
  whoami,
  teams,
  audit,
  token,
};

export interface CliIo {
  env: Record<string, string | undefined>;
  out(text: string): void;
  err(text: string): void;
  writeSecretFile(path: string, text: string): Promise<void>;
  signal: AbortSignal;
  fetch?: typeof fetch;
  now?: () => number;
  /** This CLI's version, for `beekeeper version` (the entry file reads it from package.json). */
  version?: string;
}

/** Pulls the global flags out wherever they appear, so `beekeeper --json claim …` and `claim … --json` both work. */
function globals(argv: string[]) {
  const rest: string[] = [];
  const g: { url?: string; token?: string; json: boolean; help: boolean } = { json: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] =
      a.startsWith('--') && a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined];
    if (flag === '--json') g.json = true;
    else if (flag === '--help' || flag === '-h') g.help = true;
    else if (flag === '--url' || flag === '--token') {
      const value = inline ?? argv[++i];
      if (!value) throw new UsageError(`${flag} needs a value`);
      g[flag === '--url' ? 'url' : 'token'] = value;
    } else rest.push(a);
  }
  return { g, rest };
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    const { g, rest } = globals(argv);
    const [name, ...args] = rest;
    if (g.help || name === 'help') {
      io.out(USAGE);
      return EXIT.ok;
    }
    if (!name) throw new UsageError('name a command');
    const command = name === 'version' ? version(io.version ?? 'unknown') : COMMANDS[name];
    if (!command) throw new UsageError(`unknown command "${name}"`);
    const client = createClient({
      url: g.url ?? io.env.BEEKEEPER_URL ?? DEFAULT_URL,
      token: g.token ?? io.env.BEEKEEPER_TOKEN,
      fetch: io.fetch,
    });
    const code = await command(
      {
        client,
        json: g.json,
        out: io.out,
        err: io.err,
        writeSecretFile: io.writeSecretFile,
        signal: io.signal,
        now: io.now ?? Date.now,
      },
      args,
    );
    return code !== EXIT.ok && io.signal.aborted ? interruptedCode(io.signal) : code;
  } catch (err) {
    if (io.signal.aborted) {
      io.err(`beekeeper: interrupted (${String(io.signal.reason)})`);
      return interruptedCode(io.signal);
    }
    if (err instanceof UsageError) {
      io.err(`beekeeper: ${err.message}\n\n${USAGE}`);
      return EXIT.usage;
    }
    if (err instanceof ApiError) {
      io.err(`beekeeper: ${err.message}`);
      for (const f of err.problem?.errors ?? []) io.err(`  ${f.field}: ${f.reason}`);
      return EXIT.failure;
    }
    io.err(`beekeeper: ${(err as Error).message}`);
    return EXIT.failure;
  }
}
