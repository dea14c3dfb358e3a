import { arr, bool, enumOf, obj, str, type Schema } from './schema-builders.js';

const secretReference = () => obj({ name: str(), namespace: str() }, ['name']);

/**
 * SyncSetCommonSpec, shared by SyncSet and SelectorSyncSet. `resources` are whole embedded Kubernetes objects
 * (kept as sent, apiVersion and kind required); `resourceApplyMode` (Upsert | Sync) has no CRD enum upstream.
 */
export function syncSetCommonProperties(): Record<string, Schema> {
  return {
    applyBehavior: enumOf('', 'Apply', 'CreateOnly', 'CreateOrUpdate'),
    enablePatchTemplates: bool(),
    enableResourceTemplates: bool(),
    patches: arr(
      obj(
        {
          apiVersion: str(),
          kind: str(),
          name: str(),
          namespace: str(),
          patch: str(),
          patchType: str(),
        },
        ['apiVersion', 'kind', 'name', 'patch'],
      ),
    ),
    resourceApplyMode: str(),
    resources: arr({
      type: 'object',
      'x-kubernetes-embedded-resource': true,
      'x-kubernetes-preserve-unknown-fields': true,
    }),
    secretMappings: arr(
      obj({ sourceRef: secretReference(), targetRef: secretReference() }, ['sourceRef', 'targetRef']),
    ),
  };
}
