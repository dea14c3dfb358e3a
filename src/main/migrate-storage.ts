// `node dist/main/migrate-storage.js` (`npm run migrate-storage` in a checkout): after an upgrade applied CRDs with a
// new storage version, rewrite every Beekeeper object at it and record that in each CRD's status.storedVersions
// (src/kube/storage-migration.ts, docs/upgrades.md). Runs against the state hub of Beekeeper's configuration, or
// the kubeconfig given; needs list/update on beekeeper.io resources in every namespace and update on
// customresourcedefinitions/status: a cluster admin's credentials, not Beekeeper's ServiceAccount.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { GROUP, VERSION } from '../hive/resources/crd.js';
import { BEEKEEPER_CRDS } from '../hive/resources/index.js';
import { migrateStorage, migrationClient } from '../kube/storage-migration.js';
import type { HubConnection } from '../kube/kubeconfig.js';

const USAGE = `usage: migrate-storage [--kubeconfig FILE [--context NAME]] [--dry-run]

Rewrites every ${GROUP} object at the storage version ${VERSION}, then sets each CRD's status.storedVersions to
[${VERSION}]. Without --kubeconfig it uses the state hub of Beekeeper's configuration (BEEKEEPER_CONFIG,
BEEKEEPER_HUBS, ...). Safe to run again. See docs/upgrades.md.`;

let args;
try {
  args = parseArgs({
    options: {
      kubeconfig: { type: 'string' },
      context: { type: 'string' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (err) {
  process.stderr.write(`migrate-storage: ${(err as Error).message}\n\n${USAGE}\n`);
  process.exit(2);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

let hub: HubConnection;
if (args.kubeconfig) {
  hub = { name: 'target', kubeconfig: args.kubeconfig, ...(args.context ? { context: args.context } : {}) };
} else {
  try {
    const config = loadConfig(process.env);
    const state = config.hubs.find((h) => h.name === config.stateHub);
    if (!state) throw new Error('no hubs configured: give --kubeconfig, or BEEKEEPER_CONFIG / BEEKEEPER_HUBS');
    hub = state;
  } catch (err) {
    process.stderr.write(`migrate-storage: ${(err as Error).message}\n`);
    process.exit(2);
  }
}

try {
  const report = await migrateStorage({
    rest: migrationClient(hub),
    group: GROUP,
    version: VERSION,
    plurals: BEEKEEPER_CRDS.map((c) => c.plural),
    dryRun: args['dry-run'] ?? false,
    progress: (line) => process.stdout.write(`${line}\n`),
  });
  const objects = report.reduce((n, r) => n + r.objects, 0);
  process.stdout.write(
    `${args['dry-run'] ? 'dry run' : 'done'}: ${report.length} CRDs, ${objects} objects` +
      (args['dry-run'] ? '' : `, every one stored as ${GROUP}/${VERSION}`) +
      '\n',
  );
} catch (err) {
  process.stderr.write(`migrate-storage: ${(err as Error).message}\n`);
  process.exit(1);
}
