// HibernationSchedule: declared once. The CRD (deploy/crds/), the API's request bodies and the engine's types
// (hive/schedule/types.ts) all come from these schemas. The value rules the API checks itself, with a reason a
// person can act on (services/schedules/schedule-resource.ts), are the CRD's only.
import { Type, type Static } from 'typebox';
import type { CrdDefinition } from './crd.js';
import { crdOnly, FieldIssueSchema, GO_DURATION_PATTERN, LabelSelectorSchema } from './shared.js';

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const DATE_PATTERN = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';

const Weekday = Type.Union([
  Type.Literal('Mon'),
  Type.Literal('Tue'),
  Type.Literal('Wed'),
  Type.Literal('Thu'),
  Type.Literal('Fri'),
  Type.Literal('Sat'),
  Type.Literal('Sun'),
]);
export const ExceptionModeSchema = Type.Union([Type.Literal('skipHibernation'), Type.Literal('keepHibernated')]);
const Reason = Type.Object({ reason: Type.String(crdOnly({ minLength: 1 })) });

export const RunWindowSchema = Type.Object({
  days: Type.Array(Weekday, crdOnly({ minItems: 1 })),
  start: Type.String({ ...crdOnly({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }), examples: ['07:00'] }),
  end: Type.String({
    ...crdOnly({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$' }),
    description: 'Earlier than start means the window ends the next day (overnight).',
    examples: ['19:00'],
  }),
});

export const ScheduleExceptionSchema = Type.Object({
  date: Type.String({ ...crdOnly({ pattern: DATE_PATTERN }), examples: ['2026-12-24'] }),
  mode: ExceptionModeSchema,
  reason: Type.Optional(Type.String()),
});

export const HolidayListSchema = Type.Object({
  name: Type.String(),
  mode: ExceptionModeSchema,
  dates: Type.Array(Type.String(crdOnly({ pattern: DATE_PATTERN }))),
});

/** The calendar part the engine evaluates (hive/schedule): zone, windows or cron, exceptions, holidays. */
export const ScheduleCalendarProps = {
  timeZone: Type.String({
    description: 'IANA time zone, e.g. Europe/Berlin. Windows and cron are evaluated on its wall clock.',
    examples: ['Europe/Berlin'],
  }),
  windows: Type.Optional(
    Type.Array(RunWindowSchema, { description: 'When clusters run. Set windows or cron, not both.' }),
  ),
  cron: Type.Optional(
    Type.Object(
      { hibernate: Type.String({ examples: ['0 19 * * 1-5'] }), resume: Type.String({ examples: ['0 7 * * 1-5'] }) },
      { description: 'Explicit five-field cron expressions (minute hour day-of-month month day-of-week).' },
    ),
  ),
  exceptions: Type.Optional(Type.Array(ScheduleExceptionSchema)),
  holidays: Type.Optional(Type.Array(HolidayListSchema)),
};

export const ScheduleTargetsSchema = Type.Object({
  hubs: Type.Optional(Type.Array(Type.String())),
  namespaces: Type.Optional(Type.Array(Type.String())),
  requireOptIn: Type.Optional(
    Type.Boolean({ description: 'Only clusters labelled beekeeper.io/hibernation-schedule=<this name>.' }),
  ),
  labelSelector: Type.Optional(LabelSelectorSchema),
});

export const HibernationScheduleSpecSchema = Type.Object({
  ...ScheduleCalendarProps,
  targets: Type.Optional(ScheduleTargetsSchema),
  enforce: Type.Optional(
    Type.Boolean({
      ...crdOnly({ default: false }),
      description: 'Re-apply the desired state continuously instead of only at window edges.',
    }),
  ),
  dryRun: Type.Optional(
    Type.Boolean({
      ...crdOnly({ default: false }),
      description: 'Sweeps report what they would do and change nothing.',
    }),
  ),
  catchUpDeadline: Type.Optional(
    Type.String({
      ...crdOnly({ default: '1h', pattern: GO_DURATION_PATTERN }),
      description: 'After downtime, a missed edge is applied if it is at most this old; older ones are never replayed.',
      examples: ['1h'],
    }),
  ),
  safety: Type.Optional(
    Type.Object({
      allowHibernationInFirstDay: Type.Optional(
        Type.Object(Reason.properties, {
          description: 'Lift the rule that clusters are not hibernated in their first 24h (certificate rotation).',
        }),
      ),
      ignoreLongHibernation: Type.Optional(
        Type.Object(Reason.properties, { description: 'Do not flag clusters hibernated for close to 90 days.' }),
      ),
    }),
  ),
});

export const SweepRecordSchema = Type.Object(
  {
    edge: Type.Optional(Type.String()),
    action: Type.Optional(Type.String()),
    mode: Type.Optional(Type.String()),
    jobId: Type.Optional(Type.String()),
    dryRun: Type.Optional(Type.Boolean()),
    startedAt: Type.Optional(Type.String()),
    finishedAt: Type.Optional(Type.String()),
    acted: Type.Optional(Type.Integer()),
    skipped: Type.Optional(Type.Integer()),
    failed: Type.Optional(Type.Integer()),
    skippedReasons: Type.Optional(Type.Record(Type.String(), Type.Integer())),
  },
  { description: 'The last edge a sweep ran for; durable, so the scheduler never replays it after a Redis loss.' },
);

export const HibernationScheduleStatusSchema = Type.Object({
  observedGeneration: Type.Optional(Type.Integer({ format: 'int64' })),
  nextEdge: Type.Optional(
    Type.Partial(
      Type.Object({ at: Type.String(), local: Type.String(), action: Type.String(), reason: Type.String() }),
    ),
  ),
  lastSweep: Type.Optional(SweepRecordSchema),
  lastMissed: Type.Optional(
    Type.Partial(Type.Object({ edge: Type.String(), action: Type.String(), reason: Type.String(), at: Type.String() })),
  ),
});

const EdgeSchema = Type.Object({
  at: Type.String(),
  local: Type.String(),
  action: Type.String(),
  reason: Type.String(),
});

/** The API's view of a schedule (/v1/schedules): the resource, and what it says now. */
export const ScheduleViewSchema = Type.Object(
  {
    name: Type.String(),
    team: Type.Optional(
      Type.String({ description: 'The owning team (label beekeeper.io/team); absent: platform-wide' }),
    ),
    spec: HibernationScheduleSpecSchema,
    status: HibernationScheduleStatusSchema,
    desiredNow: Type.Object({ state: Type.String(), reason: Type.String() }),
    nextEdge: Type.Optional(EdgeSchema),
    problems: Type.Optional(
      Type.Array(FieldIssueSchema, {
        description: 'Set when the stored spec is invalid (e.g. applied with kubectl): every bad field',
      }),
    ),
    createdAt: Type.Optional(Type.String()),
    resourceVersion: Type.Optional(Type.String()),
  },
  { title: 'Schedule' },
);

export type HibernationScheduleSpec = Static<typeof HibernationScheduleSpecSchema>;
export type ScheduleView = Static<typeof ScheduleViewSchema>;
export type HibernationScheduleStatus = Static<typeof HibernationScheduleStatusSchema>;
export type SweepRecord = Static<typeof SweepRecordSchema>;

export const hibernationScheduleCrd: CrdDefinition = {
  kind: 'HibernationSchedule',
  plural: 'hibernationschedules',
  shortNames: ['hs'],
  comment:
    'HibernationSchedule: when targeted clusters run and when they hibernate, in an IANA time zone.\n' +
    "Stored on the state hub in Beekeeper's namespace; survives Redis loss and can be managed by GitOps.",
  printerColumns: [
    { name: 'TimeZone', type: 'string', jsonPath: '.spec.timeZone' },
    {
      name: 'Team',
      type: 'string',
      jsonPath: '.metadata.labels.beekeeper\\.io/team',
      description: 'Owning team; none: platform-wide',
    },
    { name: 'Enforce', type: 'boolean', jsonPath: '.spec.enforce' },
    { name: 'DryRun', type: 'boolean', jsonPath: '.spec.dryRun' },
    { name: 'NextAction', type: 'string', jsonPath: '.status.nextEdge.action' },
    { name: 'NextAt', type: 'string', jsonPath: '.status.nextEdge.local' },
    { name: 'LastSweep', type: 'string', jsonPath: '.status.lastSweep.edge', priority: 1 },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
  spec: HibernationScheduleSpecSchema,
  status: HibernationScheduleStatusSchema,
};
