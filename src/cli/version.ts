// `beekeeper version [--client]`: this CLI's version, then the server's GET /version (which build answers, the
// apiVersion of its resources, the Hive it supports). As `kubectl version` does, the CLI's line comes first and an
// unreachable server is an error after it, so a CI log shows both sides of a mismatch.
import { parse } from './args.js';
import { EXIT, printJson, type CliContext } from './context.js';

interface ServerVersion {
  version: string;
  commit: string | null;
  node: string;
  apiGroupVersion: string;
  supportedHive: { apiVersion: string; testedCommit: string; testedCommitDate: string };
}

export function version(cliVersion: string) {
  return async (ctx: CliContext, args: string[]): Promise<number> => {
    const { values } = parse(args, { client: { type: 'boolean' } });
    const cli = { version: cliVersion };
    if (values.client) {
      if (ctx.json) printJson(ctx, { cli });
      else ctx.out(`CLI     ${cliVersion}`);
      return EXIT.ok;
    }
    if (!ctx.json) ctx.out(`CLI     ${cliVersion}`);
    const server = await ctx.client.request<ServerVersion>('GET', '/version');
    if (ctx.json) {
      printJson(ctx, { cli, server });
      return EXIT.ok;
    }
    const hive = server.supportedHive;
    ctx.out(
      [
        `server  ${server.version}${server.commit ? ` (commit ${server.commit.slice(0, 12)})` : ''} at ${ctx.client.base}`,
        `        node ${server.node}, resources ${server.apiGroupVersion}`,
        `        Hive ${hive.apiVersion}, tested with openshift/hive ${hive.testedCommit.slice(0, 12)} (${hive.testedCommitDate})`,
      ].join('\n'),
    );
    return EXIT.ok;
  };
}
