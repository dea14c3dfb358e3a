// Which expiry warnings are due, given the lead times and what was already delivered. The record of delivered
// warnings lives on the object (annotation) and is keyed by the expiry it was about, so an extension starts a
// fresh set of warnings and a Redis flush re-sends nothing.
import { formatGoDuration } from '../duration.js';

export const WARNINGS_ANNOTATION = 'beekeeper.io/expiry-warnings';

export interface WarningRecord {
  /** The expiry these warnings were about (ISO). */
  expiresAt: string;
  /** Lead time (Go duration) -> endpoint name -> delivered at; `superseded` when a later warning made it moot. */
  sent: Record<string, Record<string, string>>;
}

export function readWarningRecord(annotations: Record<string, string> | undefined, expiresAtMs: number): WarningRecord {
  const fresh = { expiresAt: new Date(expiresAtMs).toISOString(), sent: {} };
  const raw = annotations?.[WARNINGS_ANNOTATION];
  if (!raw) return fresh;
  try {
    const rec = JSON.parse(raw) as WarningRecord;
    return rec.expiresAt === fresh.expiresAt && rec.sent && typeof rec.sent === 'object' ? rec : fresh;
  } catch {
    return fresh;
  }
}

export interface DueWarning {
  lead: string;
  leadMs: number;
  dueAtMs: number;
}

export interface WarningPlan {
  /** The one warning to send now (the most urgent of those due), if any. */
  due?: DueWarning;
  /** Due warnings that a more urgent one makes pointless (e.g. created with 30m left: no "24h" warning). */
  superseded: DueWarning[];
  /** When the next warning falls due. */
  nextAtMs?: number;
}

/** `delivered(lead)` says whether the lead's warning went to every endpoint already. */
export function planWarnings(expiresAtMs: number, leadsMs: number[], nowMs: number, delivered: (lead: string) => boolean): WarningPlan {
  const all = leadsMs.map((leadMs) => ({ lead: formatGoDuration(leadMs), leadMs, dueAtMs: expiresAtMs - leadMs })).sort((a, b) => a.dueAtMs - b.dueAtMs);
  if (nowMs >= expiresAtMs) return { superseded: [] };
  const pending = all.filter((w) => !delivered(w.lead));
  const dueNow = pending.filter((w) => w.dueAtMs <= nowMs);
  const due = dueNow.at(-1);
  const superseded = dueNow.slice(0, -1);
  const next = pending.find((w) => w.dueAtMs > nowMs);
  return { ...(due ? { due } : {}), superseded, ...(next ? { nextAtMs: next.dueAtMs } : {}) };
}
