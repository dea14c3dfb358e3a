// Queue names. Jobs are partitioned into two queues per hub, one per class of work (catalog.ts), so that each hub,
// and each class on it, has its own concurrency limits: `ops-<hub>` for interactive work (the name every job had
// before there were classes, so jobs queued by an older version still run) and `ops-<hub>.background`. Hub names
// are DNS labels, so no hub's queue can be named like another's background one. Job ids: services/job-ids.ts.
import type { WorkClass } from '../work-class.js';

export const queueName = (hub: string, cls: WorkClass) =>
  cls === 'interactive' ? `ops-${hub}` : `ops-${hub}.background`;
