// The audit trail of expiry changes kept on the ClusterDeployment itself (annotation), so it travels with the
// cluster and survives Redis loss. Bounded so the object stays small.
export const EXPIRY_HISTORY_ANNOTATION = 'beekeeper.io/expiry-history';
export const HISTORY_LIMIT = 20;

export interface ExpiryHistoryEntry {
  at: string;
  action: 'set' | 'extend' | 'clear' | 'default' | 'cap';
  by: string;
  reason: string;
  from?: string;
  to?: string;
}

export function readHistory(annotations: Record<string, string> | undefined): ExpiryHistoryEntry[] {
  const raw = annotations?.[EXPIRY_HISTORY_ANNOTATION];
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? (parsed as ExpiryHistoryEntry[]) : [];
  } catch {
    return [];
  }
}

export function appendHistory(annotations: Record<string, string> | undefined, entry: ExpiryHistoryEntry): string {
  return JSON.stringify([...readHistory(annotations), entry].slice(-HISTORY_LIMIT));
}
