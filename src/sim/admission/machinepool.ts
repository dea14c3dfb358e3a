import type { AdmissionHook } from '../apiserver/admission.js';
import { canonicalJson } from '../hive/names.js';
import { type FieldError, denied, invalid, invalidStatus, required } from './field-errors.js';

export const MACHINEPOOL_WEBHOOK = 'machinepoolvalidators.admission.hive.openshift.io';
const OVERRIDE_PLATFORM = 'hive.openshift.io/override-machinepool-platform';

/** pkg/validating-webhooks/hive/v1/machinepool_validating_admission_hook.go: naming and immutable references. */
export const machinePoolAdmission: AdmissionHook = (req) => {
  if (req.group !== 'hive.openshift.io' || req.resource !== 'machinepools' || req.subresource) return { allowed: true };
  if (req.operation === 'DELETE') return { allowed: true };
  const pool = req.object ?? {};
  const spec = pool.spec ?? {};
  const errors: FieldError[] = [];
  const cdName = spec.clusterDeploymentRef?.name ?? '';
  if (pool.metadata?.name !== `${cdName}-${spec.name ?? ''}`) {
    errors.push(
      invalid(
        'metadata.name',
        pool.metadata?.name ?? '',
        'name must be ${CD_NAME}-${POOL_NAME}, where ${CD_NAME} is the name of the clusterdeployment and ${POOL_NAME} is the name of the remote machine pool',
      ),
    );
  }
  for (const bad of ['master', 'w']) {
    if (spec.name === bad) errors.push(invalid('spec.name', spec.name, `pool name cannot be ${JSON.stringify(bad)}`));
  }
  if (!cdName) errors.push(required('spec.clusterDeploymentRef.name', 'must have reference to clusterdeployment'));
  if (!spec.name) errors.push(required('spec.name', 'must have a name for the remote machine pool'));
  if (req.operation === 'UPDATE') {
    const old = req.oldObject?.spec ?? {};
    const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);
    if (!same(old.clusterDeploymentRef, spec.clusterDeploymentRef))
      errors.push(invalid('spec.clusterDeploymentRef', spec.clusterDeploymentRef, 'field is immutable'));
    if (!same(old.name, spec.name)) errors.push(invalid('spec.name', spec.name, 'field is immutable'));
    const overridable = ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(
      pool.metadata?.annotations?.[OVERRIDE_PLATFORM] ?? '',
    );
    if (!overridable && !same(old.platform, spec.platform))
      errors.push(invalid('spec.platform', spec.platform, 'field is immutable'));
  }
  return errors.length
    ? denied(MACHINEPOOL_WEBHOOK, invalidStatus('hive.openshift.io', 'MachinePool', req.name, errors))
    : { allowed: true };
};
