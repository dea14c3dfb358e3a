import { clusterClaimCrd } from './cluster-claim.js';
import { clusterDeploymentCustomizationCrd } from './cluster-deployment-customization.js';
import { clusterDeploymentCrd } from './cluster-deployment.js';
import { clusterDeprovisionCrd } from './cluster-deprovision.js';
import { clusterImageSetCrd } from './cluster-image-set.js';
import { clusterPoolCrd } from './cluster-pool.js';
import { clusterProvisionCrd } from './cluster-provision.js';
import { clusterRelocateCrd } from './cluster-relocate.js';
import { clusterSyncCrd } from './cluster-sync.js';
import { dnsZoneCrd } from './dns-zone.js';
import { hiveConfigCrd } from './hive-config.js';
import { machinePoolCrd } from './machine-pool.js';
import { selectorSyncSetCrd } from './selector-sync-set.js';
import { syncSetCrd } from './sync-set.js';

/**
 * The project's own CustomResourceDefinitions for the Hive kinds the simulator serves (apiextensions.k8s.io/v1
 * objects, ready to POST or to install directly). Fresh objects on every call.
 */
export function hiveCrds(): Record<string, unknown>[] {
  return [
    clusterDeploymentCrd(),
    clusterPoolCrd(),
    clusterClaimCrd(),
    clusterRelocateCrd(),
    clusterImageSetCrd(),
    clusterDeprovisionCrd(),
    clusterProvisionCrd(),
    machinePoolCrd(),
    dnsZoneCrd(),
    syncSetCrd(),
    selectorSyncSetCrd(),
    clusterDeploymentCustomizationCrd(),
    hiveConfigCrd(),
    clusterSyncCrd(),
  ];
}
