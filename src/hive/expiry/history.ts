// The audit trail of expiry changes kept on the object itself (an annotation: `beekeeper.io/expiry-history` on a
// ClusterDeployment, `beekeeper.io/lifetime-history` on a ClusterClaim), so it travels with the object and
// survives Redis loss. Every change, by any route or policy, is one entry of the same shape: who, from what to
// what, why, and through which route or policy. Bounded so the object stays small.
export const EXPIRY_HISTORY_ANNOTATION = 'beekeeper.io/expiry-history';
export const HISTORY_LIMIT = 20;

/** `default` and `cap` are a policy's; the others say how a person's change moved the expiry. */
export type ExpiryAction = 'set' | 'extend' | 'shorten' | 'clear' | 'default' | 'cap';

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

export function readHistory(annotations: Record<string, string> | undefined, key = EXPIRY_HISTORY_ANNOTATION): ExpiryHistoryEntry[] {
  const raw = annotations?.[key];
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as ExpiryHistoryEntry[]) : [];
  } catch {
    return [];
  }
}

/** The annotation's new value: the history with `entry` added, the oldest dropped past HISTORY_LIMIT. */
export function appendHistory(annotations: Record<string, string> | undefined, entry: ExpiryHistoryEntry, key = EXPIRY_HISTORY_ANNOTATION): string {
  return JSON.stringify([...readHistory(annotations, key), entry].slice(-HISTORY_LIMIT));
}
