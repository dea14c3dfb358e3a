// The field checks a create request is made of: Kubernetes name, label and network patterns, machine pools, cloud
// credentials given by reference or inline, JSON documents. Each pushes its problems, named by the field as the
// caller sent it, to the list the request's validation (create-request.ts) returns.
import type { FieldIssue } from '../../hive/errors.js';
import { LABEL_KEY, LABEL_VALUE } from '../../hive/label-selector.js';
import { isObjectName } from '../../hive/names.js';
import type { MachinePoolRequest } from './create-request.js';

export const CIDR = /^(\d{1,3}\.){3}\d{1,3}\/\d{1,2}$|^[0-9a-fA-F:]+\/\d{1,3}$/;
export const IMAGE = /^[a-z0-9.-]+(:\d+)?\/[^\s@:]+(:[\w.-]+)?(@sha256:[a-f0-9]{64})?$/;
export const SSH_KEY =
  /^(ssh-(rsa|ed25519|dss)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) [A-Za-z0-9+/=]+( .*)?$/;

export const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

export function checkLabels(
  map: Record<string, string> | undefined,
  field: string,
  issues: FieldIssue[],
  values = true,
) {
  for (const [k, v] of Object.entries(map ?? {})) {
    if (!LABEL_KEY.test(k) || k.length > 316) issues.push({ field: `${field}.${k}`, reason: 'not a valid key' });
    else if (values && (typeof v !== 'string' || !LABEL_VALUE.test(v) || v.length > 63)) {
      issues.push({
        field: `${field}.${k}`,
        reason: 'not a valid label value (63 characters of [A-Za-z0-9-_.], alphanumeric at both ends)',
      });
    }
  }
}

export function checkPool(
  pool: MachinePoolRequest | undefined,
  field: string,
  min: number,
  max: number,
  issues: FieldIssue[],
) {
  if (!pool) return;
  if (pool.replicas !== undefined && (!Number.isInteger(pool.replicas) || pool.replicas < min || pool.replicas > max)) {
    issues.push({ field: `${field}.replicas`, reason: `must be an integer from ${min} to ${max}` });
  }
  if (pool.instanceType !== undefined && !nonEmpty(pool.instanceType))
    issues.push({ field: `${field}.instanceType`, reason: 'must not be empty' });
}

export function checkCredentials(
  p: { credentialsSecretRef?: string; credentials?: unknown } | undefined,
  field: string,
  issues: FieldIssue[],
  inline: (c: Record<string, unknown>) => FieldIssue[],
) {
  if (!p) return;
  const hasRef = p.credentialsSecretRef !== undefined;
  const hasInline = p.credentials !== undefined;
  if (hasRef === hasInline) {
    issues.push({
      field: `${field}.credentialsSecretRef`,
      reason: 'give exactly one of credentialsSecretRef and credentials',
    });
  } else if (hasRef && !isObjectName(p.credentialsSecretRef)) {
    issues.push({ field: `${field}.credentialsSecretRef`, reason: 'must be the name of a Secret' });
  } else if (hasInline) {
    issues.push(...inline((p.credentials ?? {}) as Record<string, unknown>));
  }
}

export function checkJson(text: unknown, field: string, issues: FieldIssue[]) {
  if (!nonEmpty(text)) return issues.push({ field, reason: 'must not be empty' });
  try {
    if (typeof JSON.parse(text) !== 'object') throw new Error();
  } catch {
    issues.push({ field, reason: 'must be a JSON document' });
  }
}
