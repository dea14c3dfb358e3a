// The route × caller × team table: what each route needs, what each caller must get for it, and the check of one
// route's cells against a running Beekeeper (test/auth/route-matrix.test.ts runs it for every route).
//
// What each answer must be (access.md): no token → 401; an object of a team where the caller has no role → the very
// answer a missing object gets (same status, code and words); a role below the one needed → 403 Forbidden naming
// the role; a create in a namespace the caller may not create in → 403 naming the namespace; lists → 200 with only
// what the caller may see.
import { roleAtLeast, type Role } from '../../src/auth/caller.js';
import {
  CALLERS,
  HUB,
  NS,
  TEAM_OF,
  TOKENS,
  call,
  roleAt,
  visibleNamespaces,
  type Answer,
  type AuthBed,
  type CallerName,
  type Place,
} from './support.js';

export type Target = 'cluster' | 'pool' | 'claim' | 'job' | 'schedule' | 'policy' | 'webhook' | 'relocation' | 'team';
export type ListKind = 'clusters' | 'pools' | 'claims' | 'jobs' | 'schedules' | 'policies' | 'webhooks' | 'relocations';

export type Need =
  /** The object the path names: a role in its team (a job: its target's team). */
  | { object: Target; role: Role }
  /** The body names the namespace to create in. */
  | { create: 'cluster' | 'pool'; role: Role }
  /** POST /v1/claims: a pool of another team is as absent as a missing one (422), a viewer's claim is refused. */
  | { claimFrom: 'pool'; role: Role }
  /** One of Beekeeper's own objects, made for the caller's own team. */
  | { createOwn: Role }
  /** 200 for every signed-in caller, with only what it may see. */
  | { list: ListKind | 'unchecked' }
  | { signedIn: true }
  | { platformAdmin: true };

export interface Row {
  need: Need;
  body?: (ns: string, place: Place) => unknown;
  /** A query string for every request of the row (`wait=0`). */
  query?: string;
  /** Makes the object this one request acts on (a DELETE would otherwise consume the seed). */
  fresh?: (bed: AuthBed, ns: string, name: string, place: Place) => Promise<void>;
  /** Runs before each cell on the seeded object (a DELETE of an override needs one to be there). */
  prepare?: (bed: AuthBed, ns: string, name: string, place: Place) => Promise<void>;
  /**
   * What a hidden object answers when "missing" is not comparable: a PUT that creates a missing object must
   * refuse a name another team holds (409, without saying whose) rather than pretend it is free.
   */
  hiddenAnswer?: { status: number; code: string };
  /** The places the route has a target in (default all): a team is never of no team. */
  places?: readonly Place[];
}

export const PLACES: readonly Place[] = ['a', 'b', 'none'];
export const NS_OF: Record<Place, string> = { a: NS.a, b: NS.b, none: NS.none };
const MISSING = 'no-such-object';
const LIST_TARGET: Record<ListKind, Target> = {
  clusters: 'cluster',
  pools: 'pool',
  claims: 'claim',
  jobs: 'job',
  schedules: 'schedule',
  policies: 'policy',
  webhooks: 'webhook',
  relocations: 'relocation',
};

/** The object of each kind each place holds (seeded by the test). */
export type Seeds = Partial<Record<Target, Record<Place, string>>>;

interface Problemish {
  code?: string;
  detail?: string;
  title?: string;
}
const problemOf = (a: Answer) => (typeof a.body === 'object' && a.body ? (a.body as Problemish) : {});

function pathFor(op: string, place: Place, name: string, query?: string): string {
  const path = op
    .split(' ')[1]!
    .replace('{hub}', HUB)
    .replace('{namespace}', NS_OF[place])
    .replace('{name}', name)
    .replace('{id}', name);
  return query ? `${path}?${query}` : path;
}

type Verdict = 'allowed' | 'hidden' | 'forbidden' | 'unauthorized';

export function verdict(caller: CallerName, need: Need, place: Place): Verdict {
  if (caller === 'anonymous') return 'unauthorized';
  if ('signedIn' in need || 'list' in need) return 'allowed';
  if (caller === 'platform') return 'allowed';
  if ('platformAdmin' in need) return 'forbidden';
  if ('createOwn' in need) return roleAtLeast(TOKENS[caller].role as Role, need.createOwn) ? 'allowed' : 'forbidden';
  const held = roleAt(caller, place) as Role | undefined;
  if ('create' in need) return held && roleAtLeast(held, need.role) ? 'allowed' : 'forbidden';
  if (held === undefined) return 'hidden';
  return roleAtLeast(held, need.role) ? 'allowed' : 'forbidden';
}

let freshCount = 0;

/** Runs every cell of one route; returns what went wrong, one line per cell. */
export async function checkRoute(bed: AuthBed, seeds: Seeds, op: string, row: Row): Promise<string[]> {
  const method = op.split(' ')[0]!;
  const { need } = row;
  const target: Target | undefined = 'object' in need ? need.object : 'claimFrom' in need ? 'pool' : undefined;
  const placed = target !== undefined || 'create' in need;
  const wrong: string[] = [];
  for (const caller of CALLERS) {
    for (const place of placed ? (row.places ?? PLACES) : (['a'] as const)) {
      const ns = NS_OF[place];
      let name = target ? (seeds[target]?.[place] ?? '') : 'none';
      if (row.fresh) {
        name = `fresh-${++freshCount}`;
        await row.fresh(bed, ns, name, place);
      }
      await row.prepare?.(bed, ns, name, place);
      const got = await call(bed, caller, method, pathFor(op, place, name, row.query), row.body?.(ns, place));
      const expected = verdict(caller, need, place);
      const p = problemOf(got);
      const cell = `${caller} ${op} on ${place}: ${got.status} ${JSON.stringify(got.body)?.slice(0, 200)}`;
      if (got.status >= 500) wrong.push(`${cell} (server error)`);
      else if (expected === 'unauthorized') {
        if (got.status !== 401) wrong.push(`${cell} (expected 401)`);
      } else if (expected === 'forbidden') {
        if (got.status !== 403 || p.code !== 'Forbidden') wrong.push(`${cell} (expected 403 Forbidden)`);
        else if ('create' in need && !p.detail?.includes(`${HUB}/${ns}`)) wrong.push(`${cell} (403 must name ${ns})`);
        else if (!('create' in need) && !('platformAdmin' in need) && !p.detail?.includes(' role'))
          wrong.push(`${cell} (403 must name the role needed)`);
      } else if (expected === 'hidden' && row.hiddenAnswer) {
        if (got.status !== row.hiddenAnswer.status || p.code !== row.hiddenAnswer.code)
          wrong.push(`${cell} (expected ${row.hiddenAnswer.status} ${row.hiddenAnswer.code})`);
        else if (TEAM_OF[place] && p.detail?.includes(TEAM_OF[place]))
          wrong.push(`${cell} (must not name the team holding it)`);
      } else if (expected === 'hidden') {
        // The same request for an object that does not exist, by someone who may see everything.
        const missingName = target === 'job' ? `${HUB}.${MISSING}` : MISSING;
        const absentBody =
          'claimFrom' in need
            ? { ...(row.body!(ns, place) as object), pool: `${HUB}/${ns}/${MISSING}` }
            : row.body?.(ns, place);
        const absentPath = pathFor(op, place, 'claimFrom' in need ? name : missingName, row.query);
        const absent = await call(bed, 'platform', method, absentPath, absentBody);
        const a = problemOf(absent);
        const same =
          got.status === absent.status &&
          p.code === a.code &&
          p.title === a.title &&
          p.detail === a.detail?.replaceAll('claimFrom' in need ? MISSING : missingName, name);
        if (!same || ![404, 422].includes(got.status))
          wrong.push(`${cell} (expected what a missing one gets: ${absent.status} ${JSON.stringify(absent.body)})`);
      } else {
        if ([401, 403, 404].includes(got.status)) wrong.push(`${cell} (expected to be let through)`);
        if ('list' in need && need.list !== 'unchecked') wrong.push(...checkList(seeds, caller, need.list, got, cell));
      }
    }
  }
  return wrong;
}

function checkList(seeds: Seeds, caller: CallerName, kind: ListKind, got: Answer, cell: string): string[] {
  if (got.status !== 200) return [`${cell} (a list answers 200)`];
  const items = (got.body as { items: Array<Record<string, unknown>> }).items;
  const out: string[] = [];
  if (['clusters', 'pools', 'claims', 'jobs'].includes(kind)) {
    const nsOf = (item: Record<string, unknown>): string | undefined => {
      if (kind === 'jobs') return (item.target as { namespace?: string } | undefined)?.namespace;
      // A pool's cluster (in a namespace Hive made) belongs to its pool's team.
      const pool = item.pool as { namespace?: string } | undefined;
      if (kind === 'clusters' && pool?.namespace) return pool.namespace;
      if (typeof item.namespace === 'string') return item.namespace;
      return typeof item.id === 'string' ? item.id.split('/')[1] : undefined;
    };
    const visible = visibleNamespaces(caller);
    const seen = new Set(items.map(nsOf));
    for (const ns of seen) if (!visible.includes(ns!)) out.push(`${cell} (lists ${ns}, not the caller's)`);
    for (const ns of visible) {
      if (kind === 'jobs' && ns === NS.labelled) continue; // no job was made there
      if (!seen.has(ns)) out.push(`${cell} (does not list ${ns})`);
    }
    return out;
  }
  // Beekeeper's own objects: by name, the seeds of the places the caller has a role in.
  const names = seeds[LIST_TARGET[kind]] ?? ({} as Record<Place, string>);
  const listed = new Set(items.map((i) => String(i.name ?? i.id)));
  for (const place of PLACES) {
    const mine = roleAt(caller, place) !== undefined;
    const name = names[place];
    if (!name) continue;
    if (mine && !listed.has(name)) out.push(`${cell} (does not list ${name})`);
    if (!mine && listed.has(name)) out.push(`${cell} (lists ${name}, not the caller's)`);
  }
  return out;
}
