import { arr, dateTime, int64, obj, str, type Schema } from './schema-builders.js';

/**
 * Hive's condition structs (ClusterDeploymentCondition, ClusterPoolCondition, ...): only `type` and `status` are
 * required and nothing is pattern-checked, so a condition without `status` is refused (golden 40).
 */
export function hiveConditions(): Schema {
  return arr(
    obj(
      {
        lastProbeTime: dateTime(),
        lastTransitionTime: dateTime(),
        message: str(),
        reason: str(),
        status: str(),
        type: str(),
      },
      ['status', 'type'],
    ),
  );
}

/** metav1.Condition (used by ClusterDeploymentCustomization status), with the apimachinery validation markers. */
export function metaConditions(): Schema {
  return arr(
    obj(
      {
        lastTransitionTime: dateTime(),
        message: str({ maxLength: 32768 }),
        observedGeneration: int64({ minimum: 0 }),
        reason: str({ maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' }),
        status: str({ enum: ['True', 'False', 'Unknown'] }),
        type: str({
          maxLength: 316,
          pattern:
            '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
        }),
      },
      ['lastTransitionTime', 'message', 'reason', 'status', 'type'],
    ),
  );
}
