import type { AdmissionHook, AdmissionRequest, AdmissionResult } from '../apiserver/admission.js';
import {
  type FieldError,
  badRequestStatus,
  denied,
  invalid,
  invalidStatus,
  maxLenError,
  required,
} from './field-errors.js';
import { immutableSpecDiff } from './immutable-spec.js';

export const CD_WEBHOOK = 'clusterdeploymentvalidators.admission.hive.openshift.io';
const GROUP = 'hive.openshift.io';
const PROTECTED_DELETE = 'hive.openshift.io/protected-delete';
const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

const deny = (status: Record<string, any>): AdmissionResult => denied(CD_WEBHOOK, status);
const denyInvalid = (req: AdmissionRequest, errors: FieldError[]) =>
  deny(invalidStatus(GROUP, 'ClusterDeployment', req.name, errors));

/** pkg/validating-webhooks/hive/v1/clusterdeployment_validating_admission_hook.go, the parts a lifecycle client meets. */
export const clusterDeploymentAdmission: AdmissionHook = (req) => {
  if (req.group !== GROUP || req.resource !== 'clusterdeployments' || req.subresource) return { allowed: true };
  if (req.operation === 'CREATE') return validateCreate(req);
  if (req.operation === 'UPDATE') return validateUpdate(req);
  return validateDelete(req);
};

function validateCreate(req: AdmissionRequest): AdmissionResult {
  const cd = req.object ?? {};
  const spec = cd.spec ?? {};
  if ((cd.metadata?.name ?? '').length > 63)
    return deny(badRequestStatus(`Invalid cluster deployment name (.meta.name): ${maxLenError(63)}`));
  if ((spec.clusterName ?? '').length > 63)
    return deny(badRequestStatus(`Invalid cluster name (.spec.clusterName): ${maxLenError(63)}`));
  const errors: FieldError[] = [];
  if (!spec.installed) {
    if (!spec.provisioning && !spec.clusterInstallRef)
      errors.push(required('spec.provisioning', 'provisioning is required if not installed'));
    if (spec.provisioning && spec.clusterInstallRef) {
      errors.push({
        type: 'Forbidden',
        field: 'spec.provisioning',
        detail: 'provisioning and clusterInstallRef cannot be set at the same time',
      });
    }
    if (spec.provisioning && !spec.provisioning.installConfigSecretRef?.name) {
      errors.push(required('spec.provisioning.installConfigSecretRef.name', 'must specify an InstallConfig'));
    }
  }
  errors.push(...validatePlatform(spec.platform ?? {}));
  const claimName = spec.clusterPoolRef?.claimName;
  const dr = TRUE.has(cd.metadata?.labels?.['hive.openshift.io/disable-creation-webhook-for-dr'] ?? '');
  if (claimName && !dr)
    errors.push(
      invalid('spec.clusterPoolRef.claimName', claimName, 'cannot create a ClusterDeployment that is already claimed'),
    );
  return errors.length ? denyInvalid(req, errors) : { allowed: true };
}

function validatePlatform(p: Record<string, any>): FieldError[] {
  const errors: FieldError[] = [];
  const keys = Object.keys(p).filter((k) => p[k] !== undefined && p[k] !== null);
  if (keys.length === 0) return [required('spec.platform', 'must specify a platform')];
  if (keys.length > 1) return [invalid('spec.platform', p, 'must specify only a single platform')];
  const regional: Record<string, string> = { aws: 'AWS', gcp: 'GCP', azure: 'Azure', ibmcloud: 'IBM' };
  for (const [key, label] of Object.entries(regional)) {
    const v = p[key];
    if (!v) continue;
    if (!v.credentialsSecretRef?.name && !(key === 'aws' && v.credentialsAssumeRole)) {
      errors.push(
        required(`spec.platform.${key}.credentialsSecretRef.name`, `must specify secrets for ${label} access`),
      );
    }
    if (!v.region) errors.push(required(`spec.platform.${key}.region`, `must specify ${label} region`));
  }
  return errors;
}

function validateUpdate(req: AdmissionRequest): AdmissionResult {
  const spec = req.object?.spec ?? {};
  const old = req.oldObject?.spec ?? {};
  const diff = immutableSpecDiff(old, spec);
  if (diff) return deny(badRequestStatus(diff));
  const errors: FieldError[] = [];
  if (spec.installed) {
    if (!spec.clusterMetadata)
      errors.push(required('spec.clusterMetadata', 'installed cluster must have cluster metadata'));
  } else if (old.installed) {
    errors.push(invalid('spec.installed', Boolean(spec.installed), 'cannot make uninstalled once installed'));
  }
  const oldRef = old.clusterPoolRef;
  const newRef = spec.clusterPoolRef;
  if (oldRef && newRef) {
    for (const f of ['namespace', 'poolName'] as const) {
      if ((newRef[f] ?? '') !== (oldRef[f] ?? ''))
        errors.push(invalid(`spec.clusterPoolRef.${f}`, newRef[f] ?? '', 'field is immutable'));
    }
    if (oldRef.claimName && newRef.claimName !== oldRef.claimName) {
      errors.push(invalid('spec.clusterPoolRef.claimName', newRef.claimName ?? '', 'field is immutable'));
    }
  } else if (oldRef && !newRef) {
    errors.push(invalid('spec.clusterPoolRef', null, 'cannot remove clusterPoolRef'));
  } else if (!oldRef && newRef) {
    errors.push(invalid('spec.clusterPoolRef', newRef, 'cannot add clusterPoolRef'));
  }
  return errors.length ? denyInvalid(req, errors) : { allowed: true };
}

/** validateDelete: a truthy protected-delete annotation refuses the delete, whatever HiveConfig says. */
function validateDelete(req: AdmissionRequest): AdmissionResult {
  const value = req.oldObject?.metadata?.annotations?.[PROTECTED_DELETE];
  if (value === undefined || !TRUE.has(value)) return { allowed: true };
  // field.NewPath("metadata", "annotations", key) renders with dots, exactly as upstream reports it.
  return denyInvalid(req, [
    invalid(`metadata.annotations.${PROTECTED_DELETE}`, value, 'cannot delete while annotation is present'),
  ]);
}
