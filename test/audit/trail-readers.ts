// Reading the audit trail back in tests: a request's log line and Event, and GET /v1/audit as a caller.
import type { Bed, Who } from './support.js';

/** The readers, on the bed `current` returns once it is started. */
export function trailReaders(current: () => Bed) {
  const records = (annotated: Array<Record<string, any>>) =>
    annotated.map((e) => ({ event: e, record: JSON.parse(e.metadata.annotations['beekeeper.io/audit-record']) }));

  /** The request's audit log line and its Event (in `namespace`), once both are written. */
  async function traces(requestId: string, namespace: string) {
    const line = await current().auditLine(requestId);
    await current().app.auditTrail.settled();
    const events = records(await current().auditEvents(namespace)).filter((e) => e.record.requestId === requestId);
    return { line, events };
  }

  async function audit(who: Who, query: Record<string, string | number> = {}) {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return current().as(who, { method: 'GET', url: `/v1/audit${qs ? `?${qs}` : ''}` });
  }
  return { records, traces, audit };
}
