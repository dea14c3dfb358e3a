// Job ids and queue names. Jobs are partitioned into two queues per hub, one per class of work (catalog.ts), so
// that each hub, and each class on it, has its own concurrency limits: `ops-<hub>` for interactive work (the name
// every job had before there were classes, so jobs queued by an older version still run) and
// `ops-<hub>.background`. Hub names are DNS labels, so no hub's queue can be named like another's background one.
// A job id carries its hub (`<hub>.<rest>`), which lets GET /v1/jobs/{id} find the hub's queues without asking
// every one. BullMQ reserves `:` in ids.
import { createHash, randomUUID } from 'node:crypto';
import { invalid } from '../hive/errors.js';
import { JOB_ID_PART_MAX, jobIdOn } from '../services/ports.js';
import type { WorkClass } from '../work-class.js';

export const queueName = (hub: string, cls: WorkClass) => (cls === 'interactive' ? `ops-${hub}` : `ops-${hub}.background`);

const CUSTOM_ID = new RegExp(`^[A-Za-z0-9._-]{1,${JOB_ID_PART_MAX}}$`);

export function checkCustomId(field: 'jobId' | 'dedupId', id: string): void {
  if (!CUSTOM_ID.test(id)) throw invalid(field, `use 1-${JOB_ID_PART_MAX} letters, digits, ".", "_" or "-" (":" is reserved by BullMQ)`);
}

export function newJobId(hub: string, custom?: string): string {
  return jobIdOn(hub, custom ?? randomUUID());
}

export function hubOfJobId(id: string): string | undefined {
  const dot = id.indexOf('.');
  return dot > 0 ? id.slice(0, dot) : undefined;
}

/**
 * A child's id: its hub, then its parent's id and its key, so the same parent adding the same child again (a re-run,
 * a crashed worker) collapses onto the job already there. Too long a pair keeps a readable head and a hash.
 */
export function childJobId(hub: string, parentId: string, key: string): string {
  checkCustomId('jobId', key);
  const custom = `${parentId}.${key}`;
  if (custom.length <= JOB_ID_PART_MAX) return newJobId(hub, custom);
  const hash = createHash('sha256').update(custom).digest('hex').slice(0, 24);
  return newJobId(hub, `${custom.slice(0, JOB_ID_PART_MAX - 25)}.${hash}`);
}
