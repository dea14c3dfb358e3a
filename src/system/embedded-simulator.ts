// Embedded mode (no hub configured): the Hive simulator serves one hub, `local`, in this process, and the
// configuration points at it. The simulator's module is loaded here only, on demand: a process with real hubs never
// carries it.
import type { Clock } from '../clock.js';
import { withEmbeddedHub, type Config } from '../config.js';
import type { Logger } from '../logger.js';
import { prepareEmbeddedHub } from './embedded-hub.js';

export interface EmbeddedSimulator {
  /** The configuration with the simulator's hub filled in. */
  config: Config;
  /** The simulator's kubeconfig, for `oc`/`kubectl` against the demo hub. */
  simulator: { kubeconfigYaml(): string };
  close(): Promise<void>;
}

export async function startEmbeddedSimulator(deps: {
  config: Config;
  clock: Clock;
  log: Logger;
}): Promise<EmbeddedSimulator> {
  const { clock, log } = deps;
  const { startSimulator } = await import('../sim/simulator.js');
  const simLog = log.child({ component: 'sim' });
  const sim = await startSimulator({
    hubNames: ['local'],
    seed: deps.config.sim.seed,
    speed: deps.config.sim.speed,
    // HTTPS, so that kubectl with the kubeconfig `npm start` writes sends its bearer token (client-go never
    // sends one over plain HTTP).
    tls: true,
    clock,
    log: (obj, msg) => simLog.debug(obj, msg),
  });
  try {
    const config = withEmbeddedHub(deps.config, { name: 'local', kubeconfigData: sim.kubeconfigYaml() });
    await prepareEmbeddedHub({
      hub: config.hubs[0]!,
      namespace: config.stateNamespace,
      clock,
      log: log.child({ component: 'kube' }),
    });
    log.info({ hub: 'local', speed: config.sim.speed, seed: config.sim.seed }, 'embedded Hive simulator started');
    return { config, simulator: sim, close: () => sim.close() };
  } catch (err) {
    await sim.close();
    throw err;
  }
}
