// Serving a CustomResourceDefinition: one ResourceType per served version, with its compiled structural schema.
import type { CompiledSchema, ResourceType } from './types.js';
import { storageVersionHash } from './registry.js';
import { compileSchema, type CompileOptions } from './schema/index.js';

export type SchemaCompiler = (openAPIV3Schema: object, options?: CompileOptions) => CompiledSchema;

export const defaultCompiler: SchemaCompiler = compileSchema;

const CR_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

export function crdResourceTypes(crd: any, compile: SchemaCompiler | undefined): ResourceType[] {
  const { group, names, scope, versions } = crd.spec;
  const storage = versions.find((v: any) => v.storage) ?? versions[0];
  return versions
    .filter((v: any) => v.served !== false)
    .map((v: any): ResourceType => {
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
    storedVersions: [(versions.find((v: any) => v.storage) ?? versions[0]).name],
  };
}
