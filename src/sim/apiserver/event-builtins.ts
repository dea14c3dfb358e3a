// Events as the double serves them: core/v1 Event and events.k8s.io/v1 Event, two views of one stored object
// (storage key `events`, kept as core/v1 and converted on the way in and out).
import type { ResourceType } from './types.js';
import { kindShape, objectReferenceShape, orderByShape } from './serialize.js';
import { validateMeta } from './meta.js';
import { eventCoreToV1, eventV1ToCore } from './events-convert.js';
import type { TimeField } from './typed-fields.js';
import { builtin, nameOnly } from './builtin.js';

const coreEventShape = kindShape(
  [
    'involvedObject',
    'reason',
    'message',
    'source',
    'firstTimestamp',
    'lastTimestamp',
    'count',
    'type',
    'eventTime',
    'series',
    'action',
    'related',
    'reportingComponent',
    'reportingInstance',
  ],
  {
    always: {
      involvedObject: {},
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
      eventTime: null,
      reportingComponent: '',
      reportingInstance: '',
    },
    nested: {
      involvedObject: objectReferenceShape,
      related: objectReferenceShape,
      source: { order: ['component', 'host'] },
    },
  },
);
const v1EventShape = kindShape(
  [
    'eventTime',
    'series',
    'reportingController',
    'reportingInstance',
    'action',
    'reason',
    'regarding',
    'related',
    'note',
    'type',
    'deprecatedSource',
    'deprecatedFirstTimestamp',
    'deprecatedLastTimestamp',
    'deprecatedCount',
  ],
  {
    always: {
      eventTime: null,
      regarding: {},
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
    },
    nested: {
      regarding: objectReferenceShape,
      related: objectReferenceShape,
      deprecatedSource: { order: ['component', 'host'] },
    },
  },
);

// Event timestamps: firstTimestamp/lastTimestamp are metav1.Time, eventTime and series.lastObservedTime MicroTime.
const coreEventTimes: TimeField[] = [
  { path: ['firstTimestamp'], struct: 'Event' },
  { path: ['lastTimestamp'], struct: 'Event' },
  { path: ['eventTime'], struct: 'Event', micro: true },
  { path: ['series', 'lastObservedTime'], struct: 'EventSeries', micro: true },
];
const v1EventTimes: TimeField[] = [
  { path: ['eventTime'], struct: 'Event', micro: true },
  { path: ['series', 'lastObservedTime'], struct: 'EventSeries', micro: true },
  { path: ['deprecatedFirstTimestamp'], struct: 'Event' },
  { path: ['deprecatedLastTimestamp'], struct: 'Event' },
];

export function coreEventResource(): ResourceType {
  return builtin(
    '',
    'v1',
    'events',
    'Event',
    true,
    {
      shape: coreEventShape,
      validate: nameOnly('subdomain'),
      timeFields: coreEventTimes,
      atomicPaths: [['involvedObject'], ['related']],
      structPaths: [['source']],
    },
    { shortNames: ['ev'], storageKey: 'events', storageVersionHash: 'r2yiGXH7wu8=' },
  );
}

export function v1EventResource(): ResourceType {
  return builtin(
    'events.k8s.io',
    'v1',
    'events',
    'Event',
    true,
    {
      shape: v1EventShape,
      validate(obj) {
        const causes = validateMeta(obj.metadata, 'subdomain');
        if (!obj.eventTime)
          causes.push({ reason: 'FieldValueRequired', message: 'Required value', field: 'eventTime' });
        return causes;
      },
      toStorage: (obj) => orderByShape(eventV1ToCore(obj), coreEventShape),
      fromStorage: (obj) => orderByShape(eventCoreToV1(obj), v1EventShape),
      atomicPaths: [['regarding'], ['related']],
      structPaths: [['deprecatedSource']],
      timeFields: v1EventTimes,
    },
    { shortNames: ['ev'], storageKey: 'events', storageVersionHash: 'r2yiGXH7wu8=' },
  );
}
