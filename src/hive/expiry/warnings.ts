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
  /**
   * Lead time -> endpoint name -> the run delivering it now and since when: a second run of the same warning (Redis
   * lost the first's job while it waited for the receiver, and the resync queued it again) leaves it to that one.
   */
  sending?: Record<string, Record<string, { by: string; at: string }>>;
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
  /** Due warnings that a more urgent one makes pointless (e.g. the scheduler was down past two lead times). */
  superseded: DueWarning[];
  /** Lead times longer than the object had left when its expiry was set: never reached, so never sent. */
  moot: string[];
  /** When the next warning falls due. */
  nextAtMs?: number;
}

/**
 * `delivered(lead)` says whether the lead's warning went to every endpoint already. `setAtMs` is when the current
 * expiry was set (or the object created, or the claim claimed): a warning is reached when its lead time runs out
 * after that, so a lead longer than the whole remaining life at that moment is moot. With leads 24h and 1h, a
 * claim of 2h gets only the 1h warning, 1h before its end, and nothing the moment it is made.
 */
export function planWarnings(
  expiresAtMs: number,
  leadsMs: number[],
  nowMs: number,
  delivered: (lead: string) => boolean,
  setAtMs = -Infinity,
): WarningPlan {
  const all = leadsMs
    .map((leadMs) => ({ lead: formatGoDuration(leadMs), leadMs, dueAtMs: expiresAtMs - leadMs }))
    .sort((a, b) => a.dueAtMs - b.dueAtMs);
  const moot = all.filter((w) => w.dueAtMs < setAtMs).map((w) => w.lead);
  if (nowMs >= expiresAtMs) return { superseded: [], moot };
  const pending = all.filter((w) => w.dueAtMs >= setAtMs && !delivered(w.lead));
  const dueNow = pending.filter((w) => w.dueAtMs <= nowMs);
  const due = dueNow.at(-1);
  const superseded = dueNow.slice(0, -1);
  const next = pending.find((w) => w.dueAtMs > nowMs);
  return { ...(due ? { due } : {}), superseded, moot, ...(next ? { nextAtMs: next.dueAtMs } : {}) };
}
