// The worker's one mapping from domain errors to what happens next (ARCHITECTURE.md, "Errors"):
// NotFound -> done (the object is gone, nothing to do); Invalid/Forbidden -> give up at once;
// Conflict/Unavailable/anything else -> retry with backoff while attempts remain.
import { DomainError } from '../hive/errors.js';

export type Outcome =
  | { kind: 'done'; result: unknown }
  | { kind: 'give-up'; reason: string; message: string }
  | { kind: 'retry'; reason: string; message: string };

export function outcomeOf(err: unknown): Outcome {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof DomainError) {
    // Hive's own reason (e.g. `UnsupportedHibernation`) is more useful to a caller than our error class.
    const hiveReason = (err as { reason?: unknown }).reason;
    const reason = typeof hiveReason === 'string' ? hiveReason : err.code;
    switch (err.code) {
      case 'NotFound':
        return { kind: 'done', result: { outcome: 'NothingToDo', reason: 'NotFound', message } };
      case 'Invalid':
      case 'Forbidden':
      case 'QuotaExceeded':
        return { kind: 'give-up', reason, message };
      default:
        return { kind: 'retry', reason, message };
    }
  }
  return { kind: 'retry', reason: 'InternalError', message };
}
