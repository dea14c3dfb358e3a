// What docs/simulator.md shows under "Against a real API server", as a user runs it: the simulated Hive
// controllers in a process of their own, driving the API server a kubeconfig names, until SIGTERM.
//   node --import tsx test/sim/run-hive-controllers.ts <kubeconfig> [speed]
import { readFileSync } from 'node:fs';
import { systemClock } from '../../src/clock.js';
import { createKubeClient, targetFromKubeconfig } from '../../src/sim/client/index.js';
import { resolveDurations } from '../../src/sim/durations.js';
import { startHiveControllers } from '../../src/sim/hive/index.js';

const [kubeconfigPath, speed = '1000'] = process.argv.slice(2);
const client = createKubeClient(targetFromKubeconfig(readFileSync(kubeconfigPath!, 'utf8')));
const hive = startHiveControllers({
  hub: 'real',
  client,
  clock: systemClock,
  durations: resolveDurations({}, Number(speed)),
  log: (obj, msg) => process.stderr.write(`${JSON.stringify({ ...obj, msg })}\n`),
  options: { deleteProtection: false, installFailures: 0 },
});
await hive.synced;
process.stdout.write('synced\n');
process.on('SIGTERM', () => void hive.close().then(() => process.exit(0)));
