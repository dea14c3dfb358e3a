// Durations for claims: Hive's fields take only strings matching the CRD duration pattern (REFERENCE.md
// conventions), so parsing for claims is strict; the Go parser itself is shared (../duration.ts).
import { formatGoDuration, isCrdDuration, parseGoDuration } from '../duration.js';

/** Milliseconds of a duration Hive's CRD fields accept (`90m`, `1h30m`; no sign, no `d`), else undefined. */
export function parseDuration(text: string): number | undefined {
  return isCrdDuration(text) ? parseGoDuration(text) : undefined;
}

export const formatDuration = formatGoDuration;

/** Plain words for people: `1h 30m`; under a minute -> `less than a minute`. */
export function humanDuration(ms: number): string {
  if (ms < 60_000) return 'less than a minute';
  const minutes = Math.round(ms / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h ? `${h}h` : '', m ? `${m}m` : ''].filter(Boolean).join(' ');
}
