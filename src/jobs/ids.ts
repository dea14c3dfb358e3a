// Job ids and queue names. Jobs are partitioned into one queue per hub (`ops-<hub>`) so that each hub has its
// own concurrency limits. A job id carries its hub (`<hub>.<rest>`; hub names are DNS labels, so no `.` inside),
// which lets GET /v1/jobs/{id} find the queue without asking every one. BullMQ reserves `:` in ids.
import { randomUUID } from 'node:crypto';
import { invalid } from '../hive/errors.js';

export const queueName = (hub: string) => `ops-${hub}`;

const CUSTOM_ID = /^[A-Za-z0-9._-]{1,200}$/;

export function checkCustomId(field: 'jobId' | 'dedupId', id: string): void {
  if (!CUSTOM_ID.test(id)) throw invalid(field, 'use 1-200 letters, digits, ".", "_" or "-" (":" is reserved by BullMQ)');
}

export function newJobId(hub: string, custom?: string): string {
  return `${hub}.${custom ?? randomUUID()}`;
}

export function hubOfJobId(id: string): string | undefined {
  const dot = id.indexOf('.');
  return dot > 0 ? id.slice(0, dot) : undefined;
}
