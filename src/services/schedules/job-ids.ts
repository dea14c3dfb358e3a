// Deterministic job ids: the same edge for the same schedule (or cluster) always yields the same id, so any
// number of scheduler replicas enqueue one job. Ids stay within BullMQ's rules (no `:`) and the queue's 200
// characters; long ones keep a readable head and a hash of the whole.
import { createHash } from 'node:crypto';
import { idPart } from './deps.js';

const MAX = 150;

export function deterministicId(...parts: Array<string | number>): string {
  const id = parts.map((p) => idPart(String(p))).join('.');
  if (id.length <= MAX) return id;
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 20);
  return `${id.slice(0, MAX - 21)}.${hash}`;
}

export const sweepJobId = (schedule: string, edgeMs: number) => deterministicId('sweep', schedule, edgeMs);
