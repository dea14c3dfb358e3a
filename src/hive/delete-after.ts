// Hive's `hive.openshift.io/delete-after` counts from metadata.creationTimestamp, not from install or from now
// (REFERENCE.md §2.6). Beekeeper speaks absolute times to people and converts at the edge.
import { formatGoDuration, parseGoDuration } from './duration.js';

/** When Hive will delete the CD, or undefined when there is no (parsable) annotation. */
export function expiresAt(creationTimestamp: string, deleteAfter: string | undefined): Date | undefined {
  if (!deleteAfter) return undefined;
  const ms = parseGoDuration(deleteAfter);
  const created = Date.parse(creationTimestamp);
  if (ms === undefined || Number.isNaN(created)) return undefined;
  return new Date(created + ms);
}

/**
 * The annotation value that makes Hive delete at `at` or, because Go durations here are whole seconds, within one
 * second after it (rounded up, so a cluster never goes early).
 */
export function deleteAfterFor(creationTimestamp: string, at: Date): string {
  const created = Date.parse(creationTimestamp);
  if (Number.isNaN(created)) throw new RangeError('creationTimestamp is not a time');
  const ms = at.getTime() - created;
  if (ms < 0) throw new RangeError('expiry before the cluster was created');
  return formatGoDuration(ms);
}
