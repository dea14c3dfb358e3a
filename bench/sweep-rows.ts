// What bench/sweep-vs-loops.ts reports from its rounds: one log line with every round's figure, then the rows (medians
// over the rounds) that bench/run.ts collects, each against a baseline measured in the same run.
import { median, row, type Row } from './figures.js';

export type Subject = 'beekeeper' | 'one-at-a-time' | 'flood' | 'kubectl';
/** Per subject, one figure a round. */
type Figures = Record<string, number[]>;

export function sweepRows(
  figures: Record<'rates' | 'firstPatch' | 'allHibernating' | 'jobDone', Figures>,
  bed: { clusters: number; hubs: number; flood: number; kubectlSample: number; limits: string },
  run: { sweepSeconds: number; haveKubectl: boolean },
): Row[] {
  const { clusters: CLUSTERS, hubs: HUBS, flood: FLOOD, kubectlSample: KUBECTL_SAMPLE, limits: LIMITS } = bed;
  const { sweepSeconds, haveKubectl } = run;
  const { rates, firstPatch, allHibernating, jobDone } = figures;
  const m = (k: Subject) => median(rates[k] ?? [NaN]);
  const fp = (k: Subject) => median(firstPatch[k] ?? [NaN]);
  const ah = (k: Subject) => median(allHibernating[k] ?? [NaN]) / 1000;
  const tag = `${CLUSTERS} clusters, ${HUBS} hub${HUBS > 1 ? 's' : ''}`;
  const list = (m: Record<string, number[]>, digits: number) =>
    Object.entries(m)
      .map(([k, v]) => `${k} ${v.map((x) => x.toFixed(digits)).join(' ')}`)
      .join('; ');
  console.log(
    `sweep vs loops (${tag}; defaults: ${LIMITS}), clusters/s per round: ${list(rates, 1)}; ` +
      `sweep to its job done (Events too), clusters/s: ${list(jobDone, 1)}; ` +
      `first PATCH after (ms): ${list(firstPatch, 0)}; every cluster Hibernating after (ms): ${list(allHibernating, 0)}; ` +
      `sweep rounds took ${sweepSeconds.toFixed(0)} s in all${haveKubectl ? '' : '; no kubectl on PATH: its loop not run'}`,
  );
  const B = 'sweep-vs-loops';
  const rows: Row[] = [
    row(B, `default sweep / one-at-a-time (${tag})`, m('beekeeper'), m('one-at-a-time'), 'patches/s', LIMITS),
    row(B, `default sweep / flood (${tag})`, m('beekeeper'), m('flood'), 'patches/s', `flood at ${FLOOD} per hub`),
    row(
      B,
      `default sweep to job done (Events written) / flood (${tag})`,
      median(jobDone.beekeeper ?? [NaN]),
      m('flood'),
      'clusters/s',
      'the flood writes no Events',
    ),
    ...(haveKubectl
      ? [
          row(
            B,
            `default sweep / kubectl loop (${tag})`,
            m('beekeeper'),
            m('kubectl'),
            'patches/s',
            `kubectl over ${KUBECTL_SAMPLE} clusters, extrapolated`,
          ),
        ]
      : []),
    row(
      B,
      `schedule edge -> first PATCH on a hub watch (${tag})`,
      fp('beekeeper'),
      fp('flood'),
      'ms',
      'scheduler timer; vs the flood’s first PATCH after its start',
    ),
    row(
      B,
      `schedule edge -> every cluster Hibernating (${tag})`,
      ah('beekeeper'),
      ah('flood'),
      's',
      'status.powerState at simulator speed; vs the flood',
    ),
    // Whole-sweep times, for bench/run.ts's growth rows (two sizes per hub count).
    {
      ...row(B, `sweep time, default (${tag})`, CLUSTERS / m('beekeeper'), CLUSTERS / m('flood'), 's', 'vs the flood'),
      key: `sweep time, default settings, ${HUBS} hub${HUBS > 1 ? 's' : ''}`,
      n: CLUSTERS,
    },
  ];
  return rows;
}
