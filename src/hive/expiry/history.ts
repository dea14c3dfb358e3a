// The audit trail of expiry changes kept on the object itself (an annotation: `beekeeper.io/expiry-history` on a
// ClusterDeployment, `beekeeper.io/lifetime-history` on a ClusterClaim), so it travels with the object and
// survives Redis loss. Every change, by any route or policy, is one entry of the same shape: who, from what to
// what, why, and through which route or policy. Bounded so the object stays small.
export const EXPIRY_HISTORY_ANNOTATION = 'beekeeper.io/expiry-history';
export const HISTORY_LIMIT = 20;

/** `default` and `cap` are a policy's; the others say how a person's change moved the expiry. */
export const EXPIRY_ACTIONS = ['set', 'extend', 'shorten', 'clear', 'default', 'cap'] as const;
export type ExpiryAction = (typeof EXPIRY_ACTIONS)[number];

export interface ExpiryHistoryEntry {
  at: string;
  action: ExpiryAction;
  /** Who: the person the request names, else the API token's holder; `policy/<name>` for a policy. */
  by: string;
  /** Why, in the words of the person or the policy; absent when the person gave none. */
  reason?: string;
  /** Through what: the route (`PUT /v1/clusters/{id}/expiry`...) or, for a policy, what applied it. */
  via: string;
  /** The API token's holder when it is not `by` (a portal acting for a person, the caller of a sweep). */
  principal?: string;
  /** Before and after: the expiry time (ISO) of a cluster, the lifetime (Go duration) of a claim. */
  from?: string;
  to?: string;
}

/** How a person's change moves an expiry; undefined when it does not move it. */
export function changeAction(fromMs: number | undefined, toMs: number | undefined): ExpiryAction | undefined {
  if (fromMs === toMs) return undefined;
  if (fromMs === undefined) return 'set';
  if (toMs === undefined) return 'clear';
  return toMs > fromMs ? 'extend' : 'shorten';
}

const OPTIONAL = ['reason', 'principal', 'from', 'to'] as const;

/** An entry as Beekeeper writes it; an annotation is anyone's to edit, and the API shows only what it describes. */
export function isHistoryEntry(value: unknown): value is ExpiryHistoryEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const e = value as Record<string, unknown>;
  return (
    typeof e.at === 'string' &&
    (EXPIRY_ACTIONS as readonly unknown[]).includes(e.action) &&
    typeof e.by === 'string' &&
    typeof e.via === 'string' &&
    OPTIONAL.every((k) => e[k] === undefined || typeof e[k] === 'string')
  );
}

/** The annotation's entries as written, whatever their shape. */
function rawHistory(annotations: Record<string, string> | undefined, key: string): unknown[] {
  const raw = annotations?.[key];
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

export function readHistory(
  annotations: Record<string, string> | undefined,
  key = EXPIRY_HISTORY_ANNOTATION,
): ExpiryHistoryEntry[] {
  return rawHistory(annotations, key).filter(isHistoryEntry);
}

/**
 * The annotation's new value: the history with `entry` added, the oldest dropped past HISTORY_LIMIT. Entries of
 * another shape (edited by hand) are kept as they are: an audit trail loses nothing but its oldest entries.
 */
export function appendHistory(
  annotations: Record<string, string> | undefined,
  entry: ExpiryHistoryEntry,
  key = EXPIRY_HISTORY_ANNOTATION,
): string {
  return JSON.stringify([...rawHistory(annotations, key), entry].slice(-HISTORY_LIMIT));
}
