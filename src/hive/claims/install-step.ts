// Where an install is, in plain words, from the ClusterDeployment alone (REFERENCE.md §2.3-2.4): the informer cache
// holds CDs, not ClusterProvisions, and the CD carries each stage's trace. The imageset Job fills
// status.installerImage; the provision is named in status.provisionRef; Hive copies the provision's infraID onto
// spec.clusterMetadata once the install pod has it, which is when the ClusterProvision moves from `initializing` to
// `provisioning` (openshift-install creating the cloud resources, most of the ~40 minutes).
import { CONDITIONS } from '../constants.js';
import { findCondition, type ClusterDeployment } from '../types.js';
import type { PowerStep } from './power-step.js';

export function installStep(cd: ClusterDeployment): PowerStep {
  const stopped = findCondition(cd, CONDITIONS.provisionStopped);
  if (stopped?.status === 'True')
    return {
      state: 'ProvisionStopped',
      words: `install stopped (${stopped.reason ?? 'ProvisionStopped'}); Hive replaces the cluster`,
    };
  const failed = findCondition(cd, CONDITIONS.provisionFailed);
  if (failed?.status === 'True') {
    const attempt = (cd.status?.installRestarts ?? 0) + 1;
    return {
      state: 'ProvisionFailed',
      words: `installing, attempt ${attempt} failed (${failed.reason ?? 'unknown reason'}); Hive retries after a backoff`,
    };
  }
  const requirements = findCondition(cd, CONDITIONS.requirementsMet);
  if (requirements?.status === 'False') {
    return {
      state: 'RequirementsNotMet',
      words: `installing, waiting: ${requirements.message || requirements.reason || 'requirements not met'}`,
    };
  }
  if (!cd.status?.installerImage)
    return { state: 'ResolvingImages', words: 'installing, resolving the release images' };
  if (!cd.status.provisionRef) return { state: 'StartingProvision', words: 'installing, starting the install' };
  if (!cd.spec.clusterMetadata?.infraID)
    return {
      state: 'ProvisionInitializing',
      words: 'installing, preparing the install (ClusterProvision initializing)',
    };
  return { state: 'Provisioning', words: 'installing, creating the cluster (ClusterProvision provisioning)' };
}
