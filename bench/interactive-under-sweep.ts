// A user's hibernate while the scheduler's nightly sweep is running, with Beekeeper's DEFAULT hub limits (whatever
// the config loader gives: a 20-QPS cap before issue 14, an in-flight window after). The API makes the power change
// before it answers (issue 9), so the answer's latency is how long the user's few requests to the hub waited. The
// sweep is background work; the hub's limiter serves interactive requests first (src/work-class.ts), so the user
// should not wait behind the sweep's queued patches.
// Baseline, alternated: the same request with no sweep running. Ratio = under sweep / idle (1 is ideal).
// Run: npx tsx bench/interactive-under-sweep.ts [clusters]
import { startScheduleTimers } from '../src/schedules/schedule-timers.js';
import { createLogger } from '../src/logger.js';
import type { KubeObject } from '../src/services/ports.js';
import { adoptMany, HUB, hubLimits, median, report, row, startBed, timed, until } from './support.js';

const CLUSTERS = Number(process.argv[2] ?? process.env.BENCH_SWEEP_CLUSTERS ?? 200);
const ROUNDS = 3;
const PER_ROUND = 3;
const NS = 'bench-nightly';
const USERS = 'bench-user';
// The schedule's own edges in Berlin: Friday 18:00 (hibernate), Monday 08:00 (resume), Monday 18:00 (hibernate).
const EDGES = ['2026-11-20T17:00:00Z', '2026-11-23T07:00:00Z', '2026-11-23T17:00:00Z'].map(Date.parse);

const bed = await startBed({
  startMs: EDGES[0]! - 60_000,
  simProcess: true,
  defaultLimits: true,
});
const limits = hubLimits(bed.config.hubs[0]!);
const idle: number[] = [];
const busy: number[] = [];
let sweepMs = 0;
try {
  const { app, store } = bed.system;
  await adoptMany(bed.client, NS, CLUSTERS, { fake: true });
  const users = await adoptMany(bed.client, USERS, ROUNDS * PER_ROUND * 2 + 2, { fake: true });
  const cds = (ns: string) =>
    store.cachedList<KubeObject & { spec?: { powerState?: string }; status?: { powerState?: string } }>(
      'ClusterDeployment',
      { hub: HUB, namespace: ns },
    );
  await until(
    'every cluster Running',
    () => cds(NS).length === CLUSTERS && cds(NS).every((c) => c.object.status?.powerState === 'Running'),
    180_000,
  );
  const created = await app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: {
      name: 'nightly',
      timeZone: 'Europe/Berlin',
      windows: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', end: '18:00' }],
      targets: { namespaces: [NS] },
      safety: { allowHibernationInFirstDay: { reason: 'benchmark clusters were adopted minutes ago' } },
    },
  });
  if (created.statusCode !== 201) throw new Error(`schedule: ${created.statusCode} ${created.body}`);
  await store.waitFor(
    'HibernationSchedule',
    { hub: HUB, namespace: bed.config.stateNamespace, name: 'nightly' },
    (o) => o,
    { timeoutMs: 10_000 },
  );
  const timers = startScheduleTimers({
    store,
    queue: bed.system.queue,
    clock: bed.clock,
    log: createLogger({ level: 'silent' }),
    stateHub: HUB,
    stateNamespace: bed.config.stateNamespace,
  });

  let next = 0;
  const userHibernate = async () => {
    const name = users[next++]!;
    const [ms, res] = await timed(() =>
      app.inject({ method: 'POST', url: `/v1/clusters/${HUB}/${USERS}/${name}/hibernate` }),
    );
    if (res.statusCode !== 202) throw new Error(`hibernate ${name}: ${res.statusCode} ${res.body}`);
    return ms;
  };
  try {
    await userHibernate(); // warm-up: first request compiles the route's validators
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < PER_ROUND; i++) idle.push(await userHibernate());
      const target = round % 2 === 0 ? 'Hibernating' : 'Running';
      const moved = () =>
        cds(NS).filter(
          (c) =>
            c.object.spec?.powerState === target || (target === 'Running' && c.object.spec?.powerState === undefined),
        ).length;
      const before = moved();
      const [ms] = await timed(async () => {
        await bed.setTime(EDGES[round]! + 500);
        // Once the sweep's patches flow (a tenth of the clusters moved), the user asks.
        await until(
          'the sweep is under way',
          () => moved() - before >= Math.min(20, CLUSTERS / 10) || target === 'Running',
          120_000,
        );
        for (let i = 0; i < PER_ROUND; i++) busy.push(await userHibernate());
        await until(
          `every cluster ${target}`,
          () => cds(NS).every((c) => c.object.status?.powerState === target),
          300_000,
        );
      });
      sweepMs += ms;
    }
  } finally {
    timers.close();
  }
} finally {
  await bed.close();
}
console.log(
  `interactive under sweep: ${CLUSTERS} clusters (defaults: ${limits.label}), sweeps ${(sweepMs / 1000).toFixed(1)} s in all; user hibernate idle ${idle.map((x) => x.toFixed(0)).join(' ')} ms, during sweeps ${busy.map((x) => x.toFixed(0)).join(' ')} ms`,
);
report([
  row(
    'interactive-under-sweep',
    `user hibernate answer during a ${CLUSTERS}-cluster sweep, default limits`,
    median(busy),
    median(idle),
    'ms',
    'vs the same request with no sweep; ratio = during / idle',
  ),
]);
