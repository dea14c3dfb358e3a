// Every job id Beekeeper makes, in one place. A job id is `<hub>.<part>`: the hub lets GET /v1/jobs/{id} find the
// hub's queues without asking every one. Fixed parts are deterministic where a duplicate must be impossible (the
// same edge, deadline or warning always yields the same id, so any number of scheduler replicas, and the resync,
// enqueue one job). These ids are durable (Operations are named after them, Redis keeps them), so their formats
// never change: test/platform/job-id-formats.test.ts pins them. BullMQ reserves `:` in ids.
import { createHash, randomUUID } from 'node:crypto';
import { invalid } from '../hive/errors.js';
import type { ObjectRef } from './ports.js';

/** The most characters of a fixed job id (`jobId`, a child's key with its parent's id) after its hub. */
export const JOB_ID_PART_MAX = 200;

/**
 * The longest job id: `<hub>.<part>`, the hub a DNS label (at most 63). GET /v1/jobs/{id} takes every id up to
 * this length, so every job the API reports can be fetched.
 */
export const JOB_ID_MAX = 63 + 1 + JOB_ID_PART_MAX;

/** Deterministic parts stay well within JOB_ID_PART_MAX, so a child key built from one still fits with its parent. */
const DETERMINISTIC_MAX = 150;

const CUSTOM_ID = new RegExp(`^[A-Za-z0-9._-]{1,${JOB_ID_PART_MAX}}$`);

/** Kubernetes names may hold `.`, which joins parts here: every other character becomes `_`. */
const idPart = (s: string | number) => String(s).replace(/[^A-Za-z0-9_-]/g, '_');

/** Parts joined by `.`; a long id keeps a readable head and a hash of the whole. */
function deterministic(...parts: Array<string | number>): string {
  const id = parts.map(idPart).join('.');
  if (id.length <= DETERMINISTIC_MAX) return id;
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 20);
  return `${id.slice(0, DETERMINISTIC_MAX - 21)}.${hash}`;
}

type Cluster = Required<ObjectRef>;

export const jobIds = {
  /** The id a job added with the fixed part `custom` on `hub`'s queue answers to (what `enqueue` returns). */
  on: (hub: string, custom: string) => `${hub}.${custom}`,
  /** A job's id on `hub`: its fixed part if it has one, else a fresh random one. */
  fresh: (hub: string, custom?: string) => jobIds.on(hub, custom ?? randomUUID()),
  /** `<hub>` and the fixed part of an id, undefined for an id no hub's queue gave out. */
  split(id: string): { hub: string; part: string } | undefined {
    const dot = id.indexOf('.');
    return dot > 0 ? { hub: id.slice(0, dot), part: id.slice(dot + 1) } : undefined;
  },
  hubOf: (id: string) => jobIds.split(id)?.hub,
  /** Throws Invalid naming `field` unless `id` is a fixed part BullMQ accepts. */
  check(field: 'jobId' | 'dedupId', id: string): void {
    if (!CUSTOM_ID.test(id))
      throw invalid(field, `use 1-${JOB_ID_PART_MAX} letters, digits, ".", "_" or "-" (":" is reserved by BullMQ)`);
  },
  /**
   * A child's id: its hub, then its parent's id and its key, so the same parent adding the same child again (a
   * re-run, a crashed worker) collapses onto the job already there. Too long a pair keeps a readable head and a hash.
   */
  child(hub: string, parentId: string, key: string): string {
    jobIds.check('jobId', key);
    const custom = `${parentId}.${key}`;
    if (custom.length <= JOB_ID_PART_MAX) return jobIds.fresh(hub, custom);
    const hash = createHash('sha256').update(custom).digest('hex').slice(0, 24);
    return jobIds.fresh(hub, `${custom.slice(0, JOB_ID_PART_MAX - 25)}.${hash}`);
  },

  // The fixed parts, one per kind of deterministic work.
  /** A schedule's sweep of one edge. */
  sweep: (schedule: string, edgeMs: number) => deterministic('sweep', schedule, edgeMs),
  /** A sweep's child for one cluster (its key among the sweep's children). */
  sweepChild: (c: Cluster) => deterministic(c.hub, c.namespace, c.name),
  /** A cluster edge (an override lapsing) that the sweep does not cover. */
  lapse: (c: Cluster, atMs: number) => deterministic('lapse', c.hub, c.namespace, c.name, atMs),
  /** The dedup id of an enforcing schedule re-applying its state to a cluster. */
  enforce: (c: Cluster) => deterministic('enforce', c.hub, c.namespace, c.name),
  /** One warning per object, lead and expiry: an extension starts new warnings. */
  warn: (t: Cluster & { kind: 'ClusterDeployment' | 'ClusterClaim'; expiresAtMs: number }, lead: string) =>
    deterministic('warn', t.kind === 'ClusterClaim' ? 'claim' : 'cd', t.hub, t.namespace, t.name, lead, t.expiresAtMs),
  /** The dedup id of an expiry policy's enforcement on a cluster. */
  expiryPolicy: (c: Cluster) => deterministic('expiry-policy', c.hub, c.namespace, c.name),
  /** One release per claim and heartbeat deadline. */
  heartbeatExpired: (c: Cluster, deadlineMs: number) =>
    deterministic('claim-heartbeat', c.hub, c.namespace, c.name, deadlineMs),
};
