// GET /v1/audit's source: the audit Events on every hub, found by their label, read back from their annotation,
// filtered, newest first and paged by a cursor (the last record's time and id, so records written meanwhile do not
// shift the pages). Events live as long as the API server's event TTL; older records are in the log stream only.
import { invalid } from '../../hive/errors.js';
import type { HiveStore, KubeObject } from '../ports.js';
import { AUDIT_SELECTOR, recordOfEvent, type AuditOutcome, type AuditRecord } from './audit-record.js';

export interface AuditFilter {
  actor?: string;
  team?: string;
  action?: string;
  hub?: string;
  namespace?: string;
  name?: string;
  result?: AuditOutcome;
  /** ISO times, inclusive. */
  since?: string;
  until?: string;
  limit: number;
  cursor?: string;
}

export interface AuditPage {
  items: AuditRecord[];
  nextCursor?: string;
  /** Hubs whose Events could not be listed: their records are missing from this answer. */
  unreachableHubs?: string[];
}

const encodeCursor = (r: AuditRecord) => Buffer.from(JSON.stringify([r.time, r.id])).toString('base64url');

function decodeCursor(cursor: string): [string, string] {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'string')) return v as [string, string];
  } catch {
    // answered below
  }
  throw invalid('cursor', 'not a cursor this API returned (pass nextCursor as given)');
}

/** Newest first; the id breaks ties between records of the same millisecond. */
const newestFirst = (a: AuditRecord, b: AuditRecord) =>
  a.time === b.time ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.time < b.time ? 1 : -1;

function matches(r: AuditRecord, f: AuditFilter): boolean {
  return (
    (f.actor === undefined || r.actor.name === f.actor || r.actor.onBehalfOf === f.actor) &&
    (f.team === undefined || r.team === f.team) &&
    (f.action === undefined || r.action === f.action) &&
    (f.hub === undefined || r.object.hub === f.hub) &&
    (f.namespace === undefined || r.object.namespace === f.namespace) &&
    (f.name === undefined || r.object.name === f.name) &&
    (f.result === undefined || r.result.outcome === f.result) &&
    (f.since === undefined || Date.parse(r.time) >= Date.parse(f.since)) &&
    (f.until === undefined || Date.parse(r.time) <= Date.parse(f.until))
  );
}

export async function listAuditRecords(
  store: Pick<HiveStore, 'hubNames' | 'list'>,
  filter: AuditFilter,
  visible: (r: AuditRecord) => boolean,
): Promise<AuditPage> {
  const after = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor);
  const unreachableHubs: string[] = [];
  const lists = await Promise.all(
    store.hubNames().map((hub) =>
      store.list<KubeObject>('Event', hub, { labelSelector: AUDIT_SELECTOR }).catch(() => {
        unreachableHubs.push(hub);
        return [];
      }),
    ),
  );
  // A record is written once, but the same Event could be listed twice by a hub configured under two names.
  const seen = new Set<string>();
  const records: AuditRecord[] = [];
  for (const event of lists.flat()) {
    const r = recordOfEvent(event.metadata.annotations);
    if (!r || seen.has(r.id) || !visible(r) || !matches(r, filter)) continue;
    seen.add(r.id);
    if (after && (r.time > after[0] || (r.time === after[0] && r.id >= after[1]))) continue;
    records.push(r);
  }
  records.sort(newestFirst);
  const items = records.slice(0, filter.limit);
  const more = records.length > filter.limit;
  return {
    items,
    ...(more ? { nextCursor: encodeCursor(items.at(-1)!) } : {}),
    ...(unreachableHubs.length > 0 ? { unreachableHubs: unreachableHubs.sort() } : {}),
  };
}
