// How the CLI prints relocations: the preflight table, the per-cluster table and a one-line progress.

export interface Check {
  check: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  fix?: string;
}

export interface PreflightReport {
  clusters: Array<{ namespace: string; name: string; ok: boolean; checks: Check[] }>;
  imageSetsToCopy: string[];
  warnings: string[];
}

export interface RelocationView {
  id: string;
  from: string;
  to: string;
  phase: string;
  terminal: boolean;
  waves: { total: number; done: number; current?: number };
  progress: Record<string, number> & { total: number };
  eta?: string;
  message?: string;
  warnings: string[];
  clusters: Array<{
    namespace: string;
    name: string;
    wave: number;
    state: string;
    hub: string;
    reason?: string;
    message?: string;
  }>;
  job?: string;
  requestedAt: string;
}

/** Left-aligned columns, two spaces apart. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

const MARK = { error: 'ERROR', warning: 'warn', info: 'info' } as const;

export function describeReport(report: PreflightReport): string {
  const rows = [['CLUSTER', 'OK', 'CHECK', 'FINDING']];
  for (const c of report.clusters) {
    const id = `${c.namespace}/${c.name}`;
    if (c.checks.length === 0) rows.push([id, 'yes', '', '']);
    c.checks.forEach((k, i) =>
      rows.push([
        i === 0 ? id : '',
        i === 0 ? (c.ok ? 'yes' : 'NO') : '',
        `${MARK[k.severity]} ${k.check}`,
        `${k.message}${k.fix ? ` -> fix: ${k.fix}` : ''}`,
      ]),
    );
  }
  const lines = [table(rows)];
  const failing = report.clusters.filter((c) => !c.ok).length;
  lines.push(`${report.clusters.length - failing} of ${report.clusters.length} clusters can move`);
  if (report.imageSetsToCopy.length) lines.push(`ClusterImageSets to copy: ${report.imageSetsToCopy.join(', ')}`);
  for (const w of report.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

export function progressLine(v: RelocationView): string {
  const p = v.progress;
  const parts = ['moved', 'moving', 'verifying', 'pending', 'failed', 'aborted', 'preflight-failed']
    .filter((s) => (p[s] ?? 0) > 0)
    .map((s) => `${s} ${p[s]}`);
  const wave = v.waves.total ? ` wave ${v.waves.current ?? v.waves.done}/${v.waves.total}` : '';
  return `${v.id} ${v.phase}${wave}: ${parts.join(', ') || 'no clusters'} of ${p.total}${v.eta ? `, eta ${v.eta}` : ''}`;
}

export function describeRelocation(v: RelocationView): string {
  const rows = [['CLUSTER', 'WAVE', 'STATE', 'HUB', 'WHY']];
  for (const c of v.clusters)
    rows.push([
      `${c.namespace}/${c.name}`,
      String(c.wave),
      c.state,
      c.hub,
      [c.reason, c.message].filter(Boolean).join(': '),
    ]);
  const lines = [
    `relocation ${v.id}: ${v.from} -> ${v.to}, ${v.phase}${v.message ? ` (${v.message})` : ''}`,
    progressLine(v),
    table(rows),
  ];
  if (v.job) lines.push(`job ${v.job}`);
  for (const w of v.warnings) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

export function describeList(items: RelocationView[]): string {
  if (items.length === 0) return 'no relocations';
  return table([
    ['ID', 'FROM', 'TO', 'PHASE', 'MOVED', 'WAVES', 'REQUESTED'],
    ...items.map((v) => [
      v.id,
      v.from,
      v.to,
      v.phase,
      `${v.progress.moved ?? 0}/${v.progress.total}`,
      `${v.waves.done}/${v.waves.total}`,
      v.requestedAt,
    ]),
  ]);
}
