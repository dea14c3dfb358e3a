// HibernationSchedule resources: the CR shape, validation of what people send, and the compiled engine for one.
import { isCrdDuration, parseGoDuration } from '../../hive/duration.js';
import { Invalid, type FieldIssue } from '../../hive/errors.js';
import { isDnsLabel } from '../../hive/names.js';
import {
  HibernationScheduleSpecSchema,
  type HibernationScheduleSpec,
  type HibernationScheduleStatus,
  type SweepRecord,
} from '../../hive/resources/hibernation-schedule.js';
import { compileSchedule, INSTALL_GRACE_MS, scheduleSpecIssues, type Schedule } from '../../hive/schedule/index.js';
import type { KubeObject } from '../ports.js';

export type { HibernationScheduleSpec, HibernationScheduleStatus, SweepRecord };

export interface HibernationSchedule extends KubeObject {
  spec: HibernationScheduleSpec;
  status?: HibernationScheduleStatus;
}

export const DEFAULT_CATCH_UP_DEADLINE = '1h';

export function nameIssues(name: unknown, field = 'name'): FieldIssue[] {
  return isDnsLabel(name)
    ? []
    : [{ field, reason: 'must be a DNS label (lowercase letters, digits, "-", at most 63)' }];
}

export function checkName(name: unknown, field = 'name'): string {
  const issues = nameIssues(name, field);
  if (issues.length > 0) throw new Invalid(`${field}: ${issues[0]?.reason}`, issues);
  return name as string;
}

const ALLOWED = new Set(Object.keys(HibernationScheduleSpecSchema.properties));

/** Every problem with a spec a person sent, by field; nothing is stored unless this is empty. */
export function scheduleIssues(spec: HibernationScheduleSpec): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const key of Object.keys(spec)) if (!ALLOWED.has(key)) issues.push({ field: key, reason: 'unknown field' });
  issues.push(...scheduleSpecIssues(spec));
  if (
    spec.catchUpDeadline !== undefined &&
    (!isCrdDuration(spec.catchUpDeadline) || (parseGoDuration(spec.catchUpDeadline) ?? 0) <= 0)
  ) {
    issues.push({
      field: 'catchUpDeadline',
      reason: `"${spec.catchUpDeadline}" is not a positive duration such as 30m or 2h (units h, m, s; no d)`,
    });
  }
  for (const key of ['allowHibernationInFirstDay', 'ignoreLongHibernation'] as const) {
    const rule = spec.safety?.[key];
    if (rule !== undefined && (typeof rule.reason !== 'string' || rule.reason.trim() === '')) {
      issues.push({
        field: `safety.${key}.reason`,
        reason: 'overriding a safety rule needs a reason, recorded with the schedule',
      });
    }
  }
  for (const key of ['hubs', 'namespaces'] as const) {
    const list = spec.targets?.[key];
    if (list !== undefined && !Array.isArray(list))
      issues.push({ field: `targets.${key}`, reason: 'must be a list of names' });
    // Hub and namespace names are DNS labels: anything else ("\t", "../x") matches no cluster, silently.
    else list?.forEach((v, i) => issues.push(...nameIssues(v, `targets.${key}[${i}]`)));
  }
  return issues;
}

/** Throws one Invalid listing every problem: the spec's, plus any found by the caller (e.g. the name). */
export function validateScheduleSpec(spec: HibernationScheduleSpec, more: FieldIssue[] = []): void {
  const issues = [...more, ...scheduleIssues(spec)];
  if (issues.length > 0) throw new Invalid(issues.map((i) => `${i.field}: ${i.reason}`).join('; '), issues);
}

// Informer objects are replaced on every change, so the object itself is a safe cache key.
const compiled = new WeakMap<HibernationSchedule, Schedule>();

export function compile(cr: HibernationSchedule): Schedule {
  let s = compiled.get(cr);
  if (!s) {
    s = compileSchedule(cr.spec);
    compiled.set(cr, s);
  }
  return s;
}

export function catchUpDeadlineMs(cr: HibernationSchedule): number {
  return parseGoDuration(cr.spec.catchUpDeadline ?? DEFAULT_CATCH_UP_DEADLINE) ?? 3_600_000;
}

export function installGraceMs(cr: HibernationSchedule): number {
  return cr.spec.safety?.allowHibernationInFirstDay ? 0 : INSTALL_GRACE_MS;
}
