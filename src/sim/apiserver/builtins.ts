// The built-in kinds the double serves, with their struct key order, server defaults and validation.
import type { ResourceType } from './types.js';
import { builtin, nameOnly } from './builtin.js';
import { coreEventResource, v1EventResource } from './event-builtins.js';
import { kindShape, conditionShape, type Shape } from './serialize.js';
import { validateMeta } from './meta.js';
import { crdPrepareForCreate, crdVersionCauses } from './crd-strategy.js';

const ruleShape: Shape = { order: ['verbs', 'apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] };
const subjectShape: Shape = { order: ['kind', 'apiGroup', 'name', 'namespace'] };
const roleRefShape: Shape = { order: ['apiGroup', 'kind', 'name'] };

export function builtinResources(): ResourceType[] {
  const namespace = builtin(
    '',
    'v1',
    'namespaces',
    'Namespace',
    false,
    {
      shape: kindShape(['spec', 'status'], {
        nested: {
          spec: { order: ['finalizers'] },
          status: { order: ['phase', 'conditions'], items: { conditions: conditionShape } },
        },
      }),
      defaults(obj, op) {
        obj.metadata.labels = { ...obj.metadata.labels, 'kubernetes.io/metadata.name': obj.metadata.name };
        if (op === 'create') {
          obj.spec = { finalizers: ['kubernetes'] };
          obj.status = { phase: 'Active' };
        }
      },
      validate: nameOnly('label'),
      untrackedPaths: [['spec'], ['status']],
    },
    {
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['ns'],
      statusSubresource: true,
      storageVersionHash: 'Q3oi5N2YM8M=',
    },
  );

  const secret = builtin(
    '',
    'v1',
    'secrets',
    'Secret',
    true,
    {
      shape: kindShape(['immutable', 'data', 'stringData', 'type']),
      defaults(obj) {
        if (obj.stringData && typeof obj.stringData === 'object') {
          obj.data = { ...obj.data };
          for (const [k, v] of Object.entries(obj.stringData)) obj.data[k] = Buffer.from(String(v)).toString('base64');
          delete obj.stringData;
        }
        if (!obj.type) obj.type = 'Opaque';
      },
      validate: (obj) => {
        const causes = validateMeta(obj.metadata, 'subdomain');
        for (const [k, v] of Object.entries(obj.data ?? {})) {
          if (typeof v !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(v)) {
            causes.push({
              reason: 'FieldValueInvalid',
              message: 'Invalid value: illegal base64 data',
              field: `data[${k}]`,
            });
          }
        }
        return causes;
      },
    },
    { storageVersionHash: 'S6u1pOWzb84=' },
  );

  const configMap = builtin(
    '',
    'v1',
    'configmaps',
    'ConfigMap',
    true,
    {
      shape: kindShape(['immutable', 'data', 'binaryData']),
      validate: nameOnly('subdomain'),
    },
    { shortNames: ['cm'], storageVersionHash: 'qFsyl6wFWjQ=' },
  );

  const serviceAccount = builtin(
    '',
    'v1',
    'serviceaccounts',
    'ServiceAccount',
    true,
    {
      shape: kindShape(['secrets', 'imagePullSecrets', 'automountServiceAccountToken']),
      validate: nameOnly('subdomain'),
    },
    { shortNames: ['sa'] },
  );

  const rbac = 'rbac.authorization.k8s.io';
  const subjectsDefault = (obj: any) => {
    for (const s of obj.subjects ?? []) if ((s.kind === 'User' || s.kind === 'Group') && !s.apiGroup) s.apiGroup = rbac;
  };
  const role = builtin(rbac, 'v1', 'roles', 'Role', true, {
    shape: kindShape(['rules'], { always: { rules: null }, items: { rules: ruleShape } }),
    validate: nameOnly('path'),
  });
  const clusterRole = builtin(rbac, 'v1', 'clusterroles', 'ClusterRole', false, {
    shape: kindShape(['rules', 'aggregationRule'], { always: { rules: null }, items: { rules: ruleShape } }),
    validate: nameOnly('path'),
  });
  const roleBinding = builtin(rbac, 'v1', 'rolebindings', 'RoleBinding', true, {
    shape: kindShape(['subjects', 'roleRef'], { items: { subjects: subjectShape }, nested: { roleRef: roleRefShape } }),
    defaults: subjectsDefault,
    validate: nameOnly('path'),
  });
  const clusterRoleBinding = builtin(rbac, 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false, {
    shape: kindShape(['subjects', 'roleRef'], { items: { subjects: subjectShape }, nested: { roleRef: roleRefShape } }),
    defaults: subjectsDefault,
    validate: nameOnly('path'),
  });

  const lease = builtin('coordination.k8s.io', 'v1', 'leases', 'Lease', true, {
    shape: kindShape(['spec'], {
      nested: {
        spec: {
          order: [
            'holderIdentity',
            'leaseDurationSeconds',
            'acquireTime',
            'renewTime',
            'leaseTransitions',
            'strategy',
            'preferredHolder',
          ],
        },
      },
    }),
    validate: nameOnly('subdomain'),
    timeFields: [
      { path: ['spec', 'acquireTime'], struct: 'LeaseSpec', micro: true },
      { path: ['spec', 'renewTime'], struct: 'LeaseSpec', micro: true },
    ],
  });

  const crd = builtin(
    'apiextensions.k8s.io',
    'v1',
    'customresourcedefinitions',
    'CustomResourceDefinition',
    false,
    {
      shape: kindShape(['spec', 'status'], {
        nested: {
          spec: { order: ['group', 'names', 'scope', 'versions', 'conversion', 'preserveUnknownFields'] },
          status: { order: ['conditions', 'acceptedNames', 'storedVersions'], items: { conditions: conditionShape } },
        },
      }),
      validate: (obj) => {
        const causes = validateMeta(obj.metadata, 'subdomain');
        const expected = `${obj.spec?.names?.plural}.${obj.spec?.group}`;
        if (obj.metadata?.name && obj.metadata.name !== expected) {
          causes.push({
            reason: 'FieldValueInvalid',
            message: `Invalid value: "${obj.metadata.name}": must be spec.names.plural+"."+spec.group`,
            field: 'metadata.name',
          });
        }
        if (!['Namespaced', 'Cluster'].includes(obj.spec?.scope)) {
          causes.push({
            reason: 'FieldValueNotSupported',
            message: `Unsupported value: "${obj.spec?.scope ?? ''}": supported values: "Cluster", "Namespaced"`,
            field: 'spec.scope',
          });
        }
        if (!Array.isArray(obj.spec?.versions) || obj.spec.versions.length === 0) {
          causes.push({
            reason: 'FieldValueRequired',
            message: 'Required value: must have exactly one version marked as storage version',
            field: 'spec.versions',
          });
        }
        causes.push(...crdVersionCauses(obj));
        return causes;
      },
      defaults(obj, op) {
        if (op === 'create') crdPrepareForCreate(obj);
      },
      hasGeneration: true,
      untrackedPaths: [['status']],
    },
    { shortNames: ['crd', 'crds'], statusSubresource: true },
  );

  // Virtual kinds: created and answered, never stored (handlers/access-review.ts).
  const review = (resource: string, kind: string) =>
    builtin(
      'authorization.k8s.io',
      'v1',
      resource,
      kind,
      false,
      { shape: kindShape(['spec', 'status']) },
      { verbs: ['create'] },
    );

  // authentication.k8s.io/v1 TokenReview: virtual too (handlers/token-review.ts).
  const tokenReview = builtin(
    'authentication.k8s.io',
    'v1',
    'tokenreviews',
    'TokenReview',
    false,
    { shape: kindShape(['spec', 'status']) },
    { verbs: ['create'] },
  );

  return [
    configMap,
    coreEventResource(),
    namespace,
    secret,
    serviceAccount,
    v1EventResource(),
    role,
    clusterRole,
    roleBinding,
    clusterRoleBinding,
    lease,
    crd,
    review('selfsubjectaccessreviews', 'SelfSubjectAccessReview'),
    review('subjectaccessreviews', 'SubjectAccessReview'),
    tokenReview,
  ];
}
