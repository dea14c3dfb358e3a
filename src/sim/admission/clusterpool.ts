import type { AdmissionHook } from '../apiserver/admission.js';
import { badRequestStatus, denied, invalid, invalidStatus, maxLenError, required } from './field-errors.js';

export const POOL_WEBHOOK = 'clusterpoolvalidators.admission.hive.openshift.io';

/** pkg/validating-webhooks/hive/v1/clusterpool_validating_admission_hook.go: the name limit and one platform. */
export const clusterPoolAdmission: AdmissionHook = (req) => {
  if (req.group !== 'hive.openshift.io' || req.resource !== 'clusterpools' || req.subresource) return { allowed: true };
  if (req.operation === 'DELETE') return { allowed: true };
  const pool = req.object ?? {};
  if (req.operation === 'CREATE' && (pool.metadata?.name ?? '').length > 63) {
    return denied(POOL_WEBHOOK, badRequestStatus(`Invalid cluster pool name (.meta.name): ${maxLenError(63)}`));
  }
  const platform = pool.spec?.platform ?? {};
  const keys = Object.keys(platform);
  const errors =
    keys.length === 0
      ? [required('spec.platform', 'must specify a platform')]
      : keys.length > 1
        ? [invalid('spec.platform', platform, 'must specify only a single platform')]
        : [];
  return errors.length
    ? denied(POOL_WEBHOOK, invalidStatus('hive.openshift.io', 'ClusterPool', req.name, errors))
    : { allowed: true };
};
