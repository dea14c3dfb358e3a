// What apiextensions' CRD strategy does beyond the schema (registry/customresourcedefinition/strategy.go and
// apis/apiextensions/validation): status.storedVersions records every version objects may still be stored at.
// Create starts it at the storage version; an update of the spec adds a new storage version; only a /status write
// (a storage migration, once every object was rewritten) removes an old one, and never the current storage version.
import type { SchemaCause } from './types.js';

const storageOf = (crd: any): string | undefined =>
  Array.isArray(crd?.spec?.versions) ? crd.spec.versions.find((v: any) => v?.storage)?.name : undefined;

/** PrepareForCreate: whatever status the client sent is dropped; storedVersions starts at the storage version. */
export function crdPrepareForCreate(crd: any): void {
  const storage = storageOf(crd);
  crd.status = storage ? { storedVersions: [storage] } : {};
}

/** PrepareForUpdate (main resource): a storage version not yet recorded is appended. */
export function crdPrepareForUpdate(crd: any): void {
  const storage = storageOf(crd);
  if (!storage) return;
  const stored: string[] = crd.status?.storedVersions ?? [];
  if (!stored.includes(storage)) crd.status = { ...crd.status, storedVersions: [...stored, storage] };
}

/** ValidateCustomResourceDefinition's checks of spec.versions and status.storedVersions. */
export function crdVersionCauses(crd: any): SchemaCause[] {
  const versions: any[] = Array.isArray(crd?.spec?.versions) ? crd.spec.versions : [];
  if (!versions.length) return [];
  const causes: SchemaCause[] = [];
  const storage = versions.filter((v) => v?.storage);
  if (storage.length !== 1) {
    causes.push({
      reason: 'FieldValueInvalid',
      message: `Invalid value: ${storage.length}: must have exactly one version marked as storage version`,
      field: 'spec.versions',
    });
  }
  const stored = crd.status?.storedVersions;
  if (stored === undefined) return causes;
  if (!Array.isArray(stored) || stored.length === 0) {
    causes.push({
      reason: 'FieldValueInvalid',
      message: 'Invalid value: []string{}: must have at least one stored version',
      field: 'status.storedVersions',
    });
    return causes;
  }
  for (const v of versions) {
    if (v?.storage && !stored.includes(v.name)) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(v.name)}: must have the storage version ${v.name}`,
        field: 'status.storedVersions',
      });
    }
  }
  stored.forEach((name: string, i: number) => {
    if (!versions.some((v) => v?.name === name)) {
      causes.push({
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(name)}: must appear in spec.versions`,
        field: `status.storedVersions[${i}]`,
      });
    }
  });
  return causes;
}
