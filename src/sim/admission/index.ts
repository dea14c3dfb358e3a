import type { AdmissionHook } from '../apiserver/admission.js';
import { clusterDeploymentAdmission } from './clusterdeployment.js';
import { clusterPoolAdmission } from './clusterpool.js';
import { machinePoolAdmission } from './machinepool.js';

export { clusterDeploymentAdmission, CD_WEBHOOK } from './clusterdeployment.js';
export { clusterPoolAdmission, POOL_WEBHOOK } from './clusterpool.js';
export { machinePoolAdmission, MACHINEPOOL_WEBHOOK } from './machinepool.js';

/** Hive's validating webhooks that matter to a lifecycle client, for startApiServer({ admission }). */
export const hiveAdmission: AdmissionHook[] = [clusterDeploymentAdmission, clusterPoolAdmission, machinePoolAdmission];
