// One built-in kind of the double: its discovery facts (group, version, resource, verbs, storage key) and the
// behaviour the server gives it (struct key order, defaults, validation).
import type { ResourceType, BuiltinBehaviour } from './types.js';
import { validateMeta } from './meta.js';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export function builtin(
  group: string,
  version: string,
  resource: string,
  kind: string,
  namespaced: boolean,
  behaviour: BuiltinBehaviour,
  extra: Partial<ResourceType> = {},
): ResourceType {
  return {
    group,
    version,
    resource,
    kind,
    listKind: `${kind}List`,
    singular: '',
    namespaced,
    verbs: VERBS,
    storageKey: `${group}/${resource}`,
    statusSubresource: false,
    builtin: behaviour,
    ...extra,
  };
}

/** Validation of the name only (the kind's spec has no rules the double checks). */
export const nameOnly = (format: 'subdomain' | 'label' | 'path') => (obj: any) => validateMeta(obj.metadata, format);
