// How many jobs of each class of work run at once on a hub: in this process and across every replica.
import type { HubConfig } from '../config.js';
import type { WorkClass } from '../work-class.js';

/** Slots per hub and class: in this process (`concurrency`) and across every replica (`globalConcurrency`). */
export type HubSlots = Pick<
  HubConfig,
  'name' | 'concurrency' | 'globalConcurrency' | 'backgroundConcurrency' | 'backgroundGlobalConcurrency'
>;

export function slotsOf(hub: HubSlots, cls: WorkClass): { concurrency: number; globalConcurrency: number } {
  return cls === 'interactive'
    ? { concurrency: hub.concurrency, globalConcurrency: hub.globalConcurrency }
    : { concurrency: hub.backgroundConcurrency, globalConcurrency: hub.backgroundGlobalConcurrency };
}
