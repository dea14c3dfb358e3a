// The per-hub request gate (src/kube/request-gate.ts) as metrics, read from memory at scrape time:
// beekeeper_hub_requests_in_flight{hub}, beekeeper_hub_request_window{hub} (the AIMD window: below the hub's
// maxInFlight after the hub answered 429/503 with Retry-After, back up as requests succeed) and
// beekeeper_hub_throttled_total{hub} (those answers received).
import { Counter, Gauge, type Registry } from 'prom-client';

export interface HubRequestStats {
  hub: string;
  inFlight: number;
  window: number;
  throttled: number;
}

export function registerHubRequestMetrics(registry: Registry, read: () => readonly HubRequestStats[]): void {
  const registers = [registry];
  new Gauge({
    name: 'beekeeper_hub_requests_in_flight',
    help: 'Kubernetes requests this process has in flight to the hub',
    labelNames: ['hub'] as const,
    registers,
    collect() {
      for (const s of read()) this.set({ hub: s.hub }, s.inFlight);
    },
  });
  new Gauge({
    name: 'beekeeper_hub_request_window',
    help: "Requests this process may have in flight to the hub now: maxInFlight, halved on the hub's 429/503 with Retry-After",
    labelNames: ['hub'] as const,
    registers,
    collect() {
      for (const s of read()) this.set({ hub: s.hub }, s.window);
    },
  });
  const seen = new Map<string, number>();
  new Counter({
    name: 'beekeeper_hub_throttled_total',
    help: 'Answers 429, or 503 with Retry-After, received from the hub (each pauses new requests to it)',
    labelNames: ['hub'] as const,
    registers,
    collect() {
      for (const s of read()) {
        this.inc({ hub: s.hub }, s.throttled - (seen.get(s.hub) ?? 0));
        seen.set(s.hub, s.throttled);
      }
    },
  });
}
