import type { Schema } from './schema-builders.js';

export interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  priority?: number;
}

export interface CrdDefinition {
  group: string;
  version: string;
  kind: string;
  plural: string;
  shortNames?: string[];
  scope: 'Namespaced' | 'Cluster';
  spec?: Schema;
  status?: Schema;
  /** Top-level properties required by the root schema (upstream requires `spec` on some kinds). */
  required?: string[];
  scale?: { specReplicasPath: string; statusReplicasPath: string };
  printerColumns?: PrinterColumn[];
}

/**
 * An apiextensions.k8s.io/v1 CustomResourceDefinition serving one version that is also the storage version, with
 * the status subresource (every Hive kind has one) and the usual apiVersion/kind/metadata root properties.
 */
export function defineCrd(d: CrdDefinition): Record<string, unknown> {
  const singular = d.kind.toLowerCase();
  const properties: Record<string, Schema> = {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
  };
  if (d.spec) properties.spec = d.spec;
  if (d.status) properties.status = d.status;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${d.plural}.${d.group}` },
    spec: {
      group: d.group,
      names: {
        kind: d.kind,
        listKind: `${d.kind}List`,
        plural: d.plural,
        ...(d.shortNames ? { shortNames: d.shortNames } : {}),
        singular,
      },
      scope: d.scope,
      versions: [
        {
          name: d.version,
          served: true,
          storage: true,
          ...(d.printerColumns ? { additionalPrinterColumns: d.printerColumns } : {}),
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties,
              ...(d.required ? { required: d.required } : {}),
            },
          },
          subresources: { ...(d.scale ? { scale: d.scale } : {}), status: {} },
        },
      ],
    },
  };
}

export const HIVE_GROUP = 'hive.openshift.io';
export const HIVE_VERSION = 'v1';
