// Request and response schemas of /v1/schedules and the per-cluster schedule views and overrides. Request bodies
// refuse unknown fields at every level (a misplaced key would silently mean something else); a schedule and an
// override are shown as their views declared beside the resources (hive/resources), closed; the preview and the
// cluster's schedule allow extra properties.
import { Type } from 'typebox';
import { OverrideRequestSchema, OverrideViewSchema } from '../../hive/resources/cluster-override.js';
import { HibernationScheduleSpecSchema, ScheduleViewSchema } from '../../hive/resources/hibernation-schedule.js';
import { DEFAULT_PREVIEW_DAYS, MAX_PREVIEW_DAYS } from '../../hive/schedule/index.js';
import { PREVIEW_CAPS } from '../../services/schedules/index.js';
import { requestShape, responseShape } from '../request-shape.js';
import { TeamField } from './team-scoped.js';

const open = { additionalProperties: true } as const;
const closed = { additionalProperties: false } as const;
export const Name = Type.String({ minLength: 1, maxLength: 63, description: 'DNS label' });
const ScheduleSpecProps = requestShape(HibernationScheduleSpecSchema).properties;
export const ScheduleBody = Type.Object(
  { name: Name, team: Type.Optional(TeamField), ...ScheduleSpecProps },
  { ...closed, description: 'A HibernationSchedule: windows or cron, zone, exceptions, targets' },
);
export const SchedulePutBody = Type.Object(
  { name: Type.Optional(Name), team: Type.Optional(TeamField), ...ScheduleSpecProps },
  closed,
);
export const ScheduleView = responseShape(ScheduleViewSchema);
export const OverrideView = responseShape(OverrideViewSchema);
export const PreviewView = Type.Object(
  {
    schedule: Type.String(),
    timeZone: Type.String(),
    from: Type.String(),
    to: Type.String({
      description: 'End of the range shown, exclusive; when truncated, the first edge left out (ask again from it)',
    }),
    truncated: Type.Boolean({
      description: `The range was cut short: more than ${PREVIEW_CAPS.maxEdges} edges or ${PREVIEW_CAPS.maxClusterEntries} listed cluster entries`,
    }),
    runNow: Type.Optional(
      Type.Object(
        {},
        {
          ...open,
          description: 'What POST /v1/schedules/{name}/run (and its dry run) would do now; only without from',
        },
      ),
    ),
    edges: Type.Array(Type.Object({}, open)),
    excluded: Type.Array(Type.Object({}, open)),
  },
  open,
);
export const ClusterScheduleView = Type.Object(
  {
    cluster: Type.Object({}, open),
    why: Type.String(),
    next: Type.Array(Type.Object({}, open)),
    overrides: Type.Array(OverrideView),
  },
  open,
);
export const OverrideBody = requestShape(OverrideRequestSchema);
export const Range = Type.Object({
  from: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        "Start of the range: a date YYYY-MM-DD (00:00 in the schedule's time zone) or an RFC 3339 time; now by default; within 5 years of now",
      examples: ['2027-03-01', '2027-03-28T00:00:00Z'],
    }),
  ),
  days: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PREVIEW_DAYS,
      default: DEFAULT_PREVIEW_DAYS,
      description: "Calendar days of the schedule's time zone",
    }),
  ),
});
export const PreviewQuery = Type.Object({
  ...Range.properties,
  clusters: Type.Optional(
    Type.Boolean({
      default: true,
      description: 'false: each edge gives counts only, without cluster lists (only the edge cap applies)',
    }),
  ),
});
