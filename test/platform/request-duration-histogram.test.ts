// beekeeper_http_request_duration_seconds is counted by our own histogram (src/http/request-duration-histogram.ts),
// not prom-client's: a scrape must read exactly what prom-client's Histogram would expose for the same requests,
// so dashboards and alerts (histogram_quantile over _bucket, rates of _count) see no difference.
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestDurationHistogram } from '../../src/http/request-duration-histogram.js';

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60];

describe('request duration histogram', () => {
  it('exposes the same text as prom-client’s Histogram, bucket bounds inclusive, and resets alike', async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const reference = new Histogram({
      name: 'beekeeper_http_request_duration_seconds',
      help: 'HTTP requests by route template and status',
      labelNames: ['method', 'route', 'status_code'],
      buckets: BUCKETS,
      registers: [theirs],
    });
    const histogram = new RequestDurationHistogram(
      'beekeeper_http_request_duration_seconds',
      'HTTP requests by route template and status',
      BUCKETS,
      [ours],
    );
    const requests: Array<[string, string, number, number]> = [
      ['GET', '/v1/clusters/:hub/:namespace/:name', 200, 0.003],
      ['GET', '/v1/clusters/:hub/:namespace/:name', 200, 0.005], // on a bound: counted in that bucket
      ['GET', '/v1/clusters/:hub/:namespace/:name', 404, 0.2],
      ['POST', '/v1/clusters', 202, 70], // above every bound: +Inf only
      ['GET', '/v1/clusters/:hub/:namespace/:name', 200, 0.0051],
    ];
    for (const [method, route, status, seconds] of requests) {
      reference.observe({ method, route, status_code: String(status) }, seconds);
      histogram.observe(method, route, status, seconds);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain(
      'beekeeper_http_request_duration_seconds_bucket{le="0.005",method="GET",route="/v1/clusters/:hub/:namespace/:name",status_code="200"} 2',
    );
    theirs.resetMetrics();
    ours.resetMetrics();
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});
