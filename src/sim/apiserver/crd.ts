// Serving a CustomResourceDefinition: one ResourceType per served version, with its compiled structural schema.
// Several served versions share one storage table; objects are stored at the storage version of the moment they
// were written and answered at the version asked for. Only conversion strategy None is modelled (apiVersion is
// rewritten, nothing else), which is what apiextensions' nopConverter does.
import type { CompiledSchema, ResourceType } from './types.js';
import { storageVersionHash } from './registry.js';
import { byKubeAwareVersion, compareKubeAwareVersions } from './kube-versions.js';
import { compileSchema, type CompileOptions } from './schema/index.js';

export type SchemaCompiler = (openAPIV3Schema: object, options?: CompileOptions) => CompiledSchema;

export const defaultCompiler: SchemaCompiler = compileSchema;

const CR_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

export function crdResourceTypes(crd: any, compile: SchemaCompiler | undefined): ResourceType[] {
  const { group, names, scope, versions } = crd.spec;
  const storage = versions.find((v: any) => v.storage) ?? versions[0];
  return byKubeAwareVersion<any>(
    versions.filter((v: any) => v.served !== false),
    (v) => v.name,
  ).map((v: any): ResourceType => {
    const openAPIV3Schema = v.schema?.openAPIV3Schema;
    const scale = v.subresources?.scale;
    return {
      group,
      version: v.name,
      resource: names.plural,
      kind: names.kind,
      listKind: names.listKind ?? `${names.kind}List`,
      singular: names.singular ?? names.kind.toLowerCase(),
      namespaced: scope === 'Namespaced',
      shortNames: names.shortNames,
      categories: names.categories,
      verbs: CR_VERBS,
      storageKey: `${group}/${names.plural}`,
      statusSubresource: !!v.subresources?.status,
      scale: scale
        ? {
            specReplicasPath: scale.specReplicasPath,
            statusReplicasPath: scale.statusReplicasPath,
            labelSelectorPath: scale.labelSelectorPath,
          }
        : undefined,
      custom: {
        // The scale subresource adds apiextensions' non-negative replica checks to the schema.
        schema: openAPIV3Schema && compile ? compile(openAPIV3Schema, { scale }) : undefined,
        openAPIV3Schema,
        storageVersionHash: storageVersionHash(group, storage.name, names.kind),
        storageVersion: storage.name,
        ...(v.deprecated
          ? { deprecationWarning: v.deprecationWarning ?? defaultDeprecationWarning(v.name, crd.spec) }
          : {}),
        printerColumns: v.additionalPrinterColumns,
      },
    };
  });
}

/** The status the apiextensions controller writes once names are accepted and the CRD is served. */
export function establishedStatus(crd: any, now: string): any {
  const { names, versions } = crd.spec;
  const acceptedNames: any = { plural: names.plural, singular: names.singular ?? names.kind.toLowerCase() };
  if (names.shortNames) acceptedNames.shortNames = names.shortNames;
  acceptedNames.kind = names.kind;
  acceptedNames.listKind = names.listKind ?? `${names.kind}List`;
  if (names.categories) acceptedNames.categories = names.categories;
  return {
    conditions: [
      {
        type: 'NamesAccepted',
        status: 'True',
        lastTransitionTime: now,
        reason: 'NoConflicts',
        message: 'no conflicts found',
      },
      {
        type: 'Established',
        status: 'True',
        lastTransitionTime: now,
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      },
    ],
    acceptedNames,
    storedVersions: crd.status?.storedVersions ?? [(versions.find((v: any) => v.storage) ?? versions[0]).name],
  };
}

/**
 * apiextensions-apiserver's defaultDeprecationWarning: "<group>/<version> <Kind> is deprecated", plus "; use
 * <group>/<newest> <Kind>" when a newer served version is not deprecated.
 */
function defaultDeprecationWarning(version: string, spec: any): string {
  const msg = `${spec.group}/${version} ${spec.names.kind} is deprecated`;
  const newer = byKubeAwareVersion<any>(
    spec.versions.filter((v: any) => v.served && !v.deprecated && compareKubeAwareVersions(version, v.name) > 0),
    (v) => v.name,
  );
  return newer.length ? `${msg}; use ${spec.group}/${newer[0].name} ${spec.names.kind}` : msg;
}
