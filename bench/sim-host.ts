// A simulated hub in a child process, so a bench measures the memory of Beekeeper alone. The parent gets
// `{ kubeconfig, url, token }` over IPC and may send `{ advance: ms }` to jump the simulator's test clock (answered
// with `{ advanced: ms }`) or `{ close: true }`.
// Spawned by bench/support.ts startSimHost(); the simulator options come as JSON in argv[2], the clock's start in
// argv[3] (epoch ms, optional).
import { createTestClock } from '../src/clock.js';
import { startSimulator } from '../src/sim/simulator.js';

const clock = createTestClock(process.argv[3] ? Number(process.argv[3]) : undefined);
const sim = await startSimulator({ ...JSON.parse(process.argv[2] ?? '{}'), clock });
const hub = sim.hubs[0]!;
process.send!({
  kubeconfig: sim.kubeconfigYaml(),
  url: hub.url,
  token: hub.token,
  hubs: sim.hubs.map((h) => ({ name: h.name, url: h.url, token: h.token })),
});
// A failed close rejects unhandled and so ends this child with an error, which is what the bench wants.
// eslint-disable-next-line @typescript-eslint/no-misused-promises
process.on('message', async (m: { advance?: number; close?: boolean }) => {
  if (m.advance !== undefined) {
    clock.advance(m.advance);
    process.send!({ advanced: m.advance });
  }
  if (m.close) await sim.close().finally(() => process.exit(0));
});
// The parent going away ends the simulator too.
process.on('disconnect', () => void sim.close().finally(() => process.exit(0)));
