// core/v1 Events and events.k8s.io/v1 Events are two views of one stored object (golden 96 shows the mapping:
// note -> message, regarding -> involvedObject, reportingController -> reportingComponent, deprecated* -> legacy).

const pick = (obj: any, pairs: Array<[string, string]>) => {
  const out: any = {};
  for (const [to, from] of pairs) if (obj[from] !== undefined) out[to] = obj[from];
  return out;
};

/** events.k8s.io/v1 -> core/v1 (storage). */
export function eventV1ToCore(e: any): any {
  const core = pick(e, [
    ['metadata', 'metadata'],
    ['involvedObject', 'regarding'],
    ['reason', 'reason'],
    ['message', 'note'],
    ['source', 'deprecatedSource'],
    ['firstTimestamp', 'deprecatedFirstTimestamp'],
    ['lastTimestamp', 'deprecatedLastTimestamp'],
    ['count', 'deprecatedCount'],
    ['type', 'type'],
    ['eventTime', 'eventTime'],
    ['series', 'series'],
    ['action', 'action'],
    ['related', 'related'],
    ['reportingComponent', 'reportingController'],
    ['reportingInstance', 'reportingInstance'],
  ]);
  if (core.series) core.series = { count: core.series.count, lastObservedTime: core.series.lastObservedTime };
  return { kind: 'Event', apiVersion: 'v1', ...core };
}

/** core/v1 (storage) -> events.k8s.io/v1. */
export function eventCoreToV1(e: any): any {
  const v1 = pick(e, [
    ['metadata', 'metadata'],
    ['eventTime', 'eventTime'],
    ['series', 'series'],
    ['reportingController', 'reportingComponent'],
    ['reportingInstance', 'reportingInstance'],
    ['action', 'action'],
    ['reason', 'reason'],
    ['regarding', 'involvedObject'],
    ['related', 'related'],
    ['note', 'message'],
    ['type', 'type'],
    ['deprecatedSource', 'source'],
    ['deprecatedFirstTimestamp', 'firstTimestamp'],
    ['deprecatedLastTimestamp', 'lastTimestamp'],
    ['deprecatedCount', 'count'],
  ]);
  if (v1.reportingController === '') delete v1.reportingController;
  if (v1.reportingInstance === '') delete v1.reportingInstance;
  return { kind: 'Event', apiVersion: 'events.k8s.io/v1', ...v1 };
}
