import { defineCrd, HIVE_GROUP, HIVE_VERSION } from './define-crd.js';
import { labelSelector } from './label-selector.js';
import { obj } from './schema-builders.js';
import { syncSetCommonProperties } from './sync-set-common.js';

/** SelectorSyncSet: cluster-scoped, targets CDs by `spec.clusterDeploymentSelector`. */
export function selectorSyncSetCrd(): Record<string, unknown> {
  return defineCrd({
    group: HIVE_GROUP,
    version: HIVE_VERSION,
    kind: 'SelectorSyncSet',
    plural: 'selectorsyncsets',
    shortNames: ['sss'],
    scope: 'Cluster',
    spec: obj({ ...syncSetCommonProperties(), clusterDeploymentSelector: labelSelector() }),
    status: obj({}),
  });
}
