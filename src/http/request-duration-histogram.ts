// beekeeper_http_request_duration_seconds, observed once per request. prom-client's Histogram builds a label object,
// validates it and hashes its sorted keys into a string on every observe; per request that was as much as the
// route's own work on a cached GET (issue 14). Here a series is found through three Map lookups (route, method,
// status) and counted into an array, with no allocation once it exists. The registry formats it as any histogram:
// the same names, labels, buckets (cumulative `le`, then `+Inf`), _sum and _count as prom-client's.
import type { MetricObjectWithValues, MetricType, MetricValueWithName, Registry } from 'prom-client';

type Label = 'method' | 'route' | 'status_code' | 'le';

interface Series {
  method: string;
  route: string;
  status: string;
  /** Observations per bucket, not cumulative; the last is above every bound (+Inf). */
  counts: number[];
  sum: number;
  count: number;
}

export class RequestDurationHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Map<string, Map<number, Series>>>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: readonly number[],
    registers: readonly Registry[],
  ) {
    // registerMetric takes any object the registry can call get() on (prom-client's Metric is one).
    for (const r of registers) r.registerMetric(this as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.series.get(route);
    if (!byMethod) this.series.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let s = byStatus.get(status);
    if (!s) {
      s = {
        method,
        route,
        status: String(status),
        counts: new Array<number>(this.buckets.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      byStatus.set(status, s);
    }
    let i = 0;
    while (i < this.buckets.length && seconds > this.buckets[i]!) i++;
    s.counts[i]!++;
    s.sum += seconds;
    s.count++;
  }

  /** What the registry formats (`collect` is prom-client's hook for metrics filled at scrape time: none here). */
  get(): MetricObjectWithValues<MetricValueWithName<Label>> {
    const values: Array<MetricValueWithName<Label>> = [];
    for (const byMethod of this.series.values())
      for (const byStatus of byMethod.values())
        for (const s of byStatus.values()) {
          const labels = { method: s.method, route: s.route, status_code: s.status };
          let cumulative = 0;
          this.buckets.forEach((le, i) => {
            cumulative += s.counts[i]!;
            values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
          });
          values.push({ labels: { le: '+Inf', ...labels }, value: s.count, metricName: `${this.name}_bucket` });
          values.push({ labels, value: s.sum, metricName: `${this.name}_sum` });
          values.push({ labels, value: s.count, metricName: `${this.name}_count` });
        }
    return {
      name: this.name,
      help: this.help,
      type: 'histogram' as unknown as MetricType,
      values,
      aggregator: this.aggregator,
      collect: () => undefined,
    };
  }

  reset(): void {
    this.series.clear();
  }
}
