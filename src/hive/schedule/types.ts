// The schedule model as the engine sees it (the HibernationSchedule CRD's spec maps onto it one to one).

import { Type, type Static } from 'typebox';
import {
  ExceptionModeSchema,
  HolidayListSchema,
  RunWindowSchema,
  ScheduleCalendarProps,
  ScheduleExceptionSchema,
  WEEKDAYS,
} from '../resources/hibernation-schedule.js';

export { WEEKDAYS };
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * When clusters should run. `start` and `end` are local `HH:MM`; `end` may be `24:00`. An `end` earlier than
 * `start` is an overnight window that ends on the following day (the day listed is the day it starts).
 */
export type RunWindow = Static<typeof RunWindowSchema>;

/**
 * `skipHibernation`: hibernate actions falling on that local date are skipped (clusters stay up).
 * `keepHibernated`: resume actions falling on that local date are skipped (clusters stay down).
 */
export type ExceptionMode = Static<typeof ExceptionModeSchema>;

/** `date` is a local date `YYYY-MM-DD` in the schedule's zone. */
export type ScheduleException = Static<typeof ScheduleExceptionSchema>;

export type HolidayList = Static<typeof HolidayListSchema>;

export const ScheduleCalendarSchema = Type.Object(ScheduleCalendarProps);
/** The zone and either windows or explicit cron expressions (five fields, evaluated on the zone's wall clock). */
export type ScheduleSpec = Static<typeof ScheduleCalendarSchema>;

export type PowerAction = 'hibernate' | 'resume';
export type DesiredState = 'Running' | 'Hibernating';

export interface Edge {
  /** UTC ISO instant. */
  at: string;
  /** The same instant in the schedule's zone, with its offset. */
  local: string;
  action: PowerAction;
  /** Why this action happens (the window or cron rule, plus any DST note). */
  reason: string;
  /** Set when the edge is not acted on, with the reason (exception date, override, safety rule). */
  skipped?: string;
  /** Machine-readable form of `skipped`. */
  skipCode?: SkipCode;
}

export type SkipCode = 'ExceptionDate' | 'KeepAwakeOverride' | 'SkipNextHibernationOverride' | 'InstallGracePeriod';

export interface Desired {
  state: DesiredState;
  /** The edge that put the schedule in this state, if any. */
  since?: Edge;
  reason: string;
}

export const actionState = (action: PowerAction): DesiredState => (action === 'hibernate' ? 'Hibernating' : 'Running');
