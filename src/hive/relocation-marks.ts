// What Beekeeper writes on a ClusterDeployment while a Relocation moves it (issue 11). The label is the one the
// relocation's ClusterRelocate selects (so it decides what Hive moves, wave by wave); from the moment it is set,
// Beekeeper's own schedules, expiry warnings and claims leave the cluster alone. The origin annotation travels with
// the cluster (Hive copies annotations, REFERENCE.md §6) and carries what Hive resets on the destination: the
// absolute expiry (delete-after counts from a creationTimestamp the copy gets anew) and the power state before.
import { ANNOTATIONS } from './constants.js';

export const RELOCATION_LABEL = 'beekeeper.io/relocation';
export const RELOCATION_ORIGIN_ANNOTATION = 'beekeeper.io/relocation-origin';

export interface RelocationOrigin {
  relocation: string;
  hub: string;
  /** ISO time Hive would have deleted the cluster at on the source (absent: no expiry). */
  expiresAt?: string;
  /** spec.powerState as it was (Running when unset). */
  powerState: 'Running' | 'Hibernating';
}

/** The relocation moving this cluster, if one is. */
export function relocationOf(obj: { metadata: { labels?: Record<string, string> } }): string | undefined {
  return obj.metadata.labels?.[RELOCATION_LABEL] || undefined;
}

export function readRelocationOrigin(annotations: Record<string, string> | undefined): RelocationOrigin | undefined {
  const raw = annotations?.[RELOCATION_ORIGIN_ANNOTATION];
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as RelocationOrigin;
    return typeof v?.relocation === 'string' && typeof v.hub === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why Beekeeper leaves this cluster alone now, if a relocation is moving it: Beekeeper's label (from the moment a
 * wave labels it) or Hive's relocate annotation (REFERENCE.md §6). The same words everywhere: schedules,
 * a person's power request, expiry warnings and policies, claims.
 */
export function relocatingMessage(cd: {
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
}): string | undefined {
  const id = relocationOf(cd);
  if (id) return `relocation ${id} is moving it (${RELOCATION_LABEL}=${id})`;
  const relocate = cd.metadata.annotations?.[ANNOTATIONS.relocate];
  return relocate ? `relocation in progress (${ANNOTATIONS.relocate}=${relocate})` : undefined;
}
