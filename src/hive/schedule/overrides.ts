// Per-cluster exceptions people make on the spot. Both lapse by themselves: a keep-awake at its `until`, a
// skip-next-hibernation once it has skipped one hibernation (or at its optional `until`).
import type { Static } from 'typebox';
import type { OverrideTypeSchema } from '../resources/cluster-override.js';

export type OverrideType = Static<typeof OverrideTypeSchema>;
export const OVERRIDE_TYPES: OverrideType[] = ['keepAwake', 'skipNextHibernation'];

export interface PowerOverride {
  name: string;
  type: OverrideType;
  /** When it was made (it never reaches back before this instant). */
  fromMs: number;
  /** Required for keepAwake; optional for skipNextHibernation. */
  untilMs?: number;
  by: string;
  reason: string;
}

export type OverridePhase = 'Active' | 'Expired' | 'Consumed';

export function describeOverride(o: PowerOverride): string {
  const until = o.untilMs === undefined ? '' : ` until ${new Date(o.untilMs).toISOString()}`;
  const what = o.type === 'keepAwake' ? 'keep-awake' : 'skip-next-hibernation';
  return `${what} override by ${o.by}${until}: ${o.reason}`;
}

export function keepAwakeActive(o: PowerOverride, atMs: number): boolean {
  return o.type === 'keepAwake' && o.fromMs <= atMs && o.untilMs !== undefined && atMs < o.untilMs;
}
