// OpenShift clusters hibernated for about 90 days risk expired certificates on resume; flag them ahead of time
// so someone resumes them (docs/hibernating-clusters.md, REFERENCE.md §10).
const DAY = 86_400_000;
export const LONG_HIBERNATION_FLAG_DAYS = 80;
export const LONG_HIBERNATION_LIMIT_DAYS = 90;

export interface LongHibernationFlag {
  hibernatedDays: number;
  message: string;
}

export function longHibernationFlag(sinceMs: number | undefined, nowMs: number): LongHibernationFlag | undefined {
  if (sinceMs === undefined) return undefined;
  const days = Math.floor((nowMs - sinceMs) / DAY);
  if (days < LONG_HIBERNATION_FLAG_DAYS) return undefined;
  return {
    hibernatedDays: days,
    message:
      `hibernated for ${days} days; resume it before ${LONG_HIBERNATION_LIMIT_DAYS} days ` +
      `(${new Date(sinceMs + LONG_HIBERNATION_LIMIT_DAYS * DAY).toISOString()}) or its ` +
      `certificates may expire`,
  };
}
