// A Beekeeper resource's CustomResourceDefinition, built from its TypeBox spec and status schemas, so the CRD under
// deploy/crds/ is generated (scripts/generate.ts) rather than written beside the types a second time.
import type { TSchema } from 'typebox';

export interface PrinterColumn {
  name: string;
  type: 'string' | 'boolean' | 'integer' | 'number' | 'date';
  jsonPath: string;
  description?: string;
  priority?: number;
}

export interface CrdDefinition {
  kind: string;
  plural: string;
  shortNames: string[];
  /** Said above the YAML: what the resource is for, for whoever reads deploy/crds/. */
  comment: string;
  printerColumns: PrinterColumn[];
  spec: TSchema;
  status: TSchema;
}

export const GROUP = 'beekeeper.io';
/** The storage version, and the only one Beekeeper reads and writes. */
export const VERSION = 'v1beta1';
/** The apiVersion of every Beekeeper object Beekeeper writes: say it through this constant, nowhere else. */
export const BEEKEEPER_API_VERSION = `${GROUP}/${VERSION}`;
/**
 * Versions still served for clients written against them (kubectl scripts, GitOps manifests, an older Beekeeper
 * during a rolling upgrade), deprecated: the API server answers each request to them with a Warning header.
 * Their schema is the storage version's, so no conversion webhook is needed (docs/upgrades.md).
 */
export const SERVED_OLD_VERSIONS = ['v1alpha1'] as const;

type Node = Record<string, unknown>;

// What apiextensions.k8s.io/v1 JSONSchemaProps can say that our schemas use; TypeBox's `examples`, `title` and
// friends are for the API description only.
const KEPT = [
  'type',
  'format',
  'enum',
  'default',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'description',
];

/**
 * The structural form Kubernetes requires (no `$ref`, no `anyOf` of literals, no `additionalProperties` beside
 * `properties`): a union of literals becomes an `enum`, a record its `additionalProperties`, and a closed object
 * an open one, since the API server prunes unknown fields rather than refusing them. Rules said with `crdOnly`
 * apply here; those said with `apiOnly` do not.
 */
export function toStructural(schema: TSchema): Node {
  const s = { ...(schema as Node), ...((schema as Node)['x-crd-only'] as Node | undefined) };
  const literals =
    Array.isArray(s.anyOf) && (s.anyOf as Node[]).every((b) => 'const' in b)
      ? (s.anyOf as Node[]).map((b) => b.const)
      : undefined;
  const values = literals ?? (Array.isArray(s.enum) ? (s.enum as unknown[]) : undefined);
  if (s.anyOf !== undefined && literals === undefined)
    throw new Error(`a CRD schema cannot say anyOf of types: ${JSON.stringify(s)}`);
  const out: Node = {};
  for (const key of KEPT) {
    if (key === 'enum' && values !== undefined) out.enum = values;
    else if (key === 'type' && s.type === undefined && values !== undefined) out.type = typeof values[0];
    else if (s[key] !== undefined) out[key] = s[key];
  }
  if (Array.isArray(s.required) && s.required.length > 0) out.required = s.required;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  if (s.properties !== undefined)
    out.properties = Object.fromEntries(
      Object.entries(s.properties as Node).map(([k, v]) => [k, toStructural(v as TSchema)]),
    );
  const mapValue =
    s.patternProperties !== undefined ? Object.values(s.patternProperties as Node)[0] : s.additionalProperties;
  if (!preserve && typeof mapValue === 'object' && mapValue !== null) out.additionalProperties = toStructural(mapValue);
  if (s.items !== undefined) out.items = toStructural(s.items as TSchema);
  for (const [k, v] of Object.entries(s)) if (k.startsWith('x-kubernetes-')) out[k] = v;
  return out;
}

/**
 * The CustomResourceDefinition object: the storage version plus the older versions still served, each with the
 * same schema and the status subresource. Conversion strategy None is correct only because the schemas are
 * identical: the API server then converts by rewriting apiVersion alone. A version whose schema differs needs a
 * conversion webhook instead, or objects read at one version would silently lose or misread fields.
 */
export function buildCrd(def: CrdDefinition): Node {
  const plural = def.plural;
  const schema = {
    openAPIV3Schema: {
      type: 'object',
      required: ['spec'],
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: { type: 'object' },
        spec: toStructural(def.spec),
        status: toStructural(def.status),
      },
    },
  };
  const version = (name: string, storage: boolean): Node => ({
    name,
    served: true,
    storage,
    ...(storage
      ? {}
      : {
          deprecated: true,
          deprecationWarning: `${GROUP}/${name} ${def.kind} is deprecated; use ${BEEKEEPER_API_VERSION} ${def.kind}`,
        }),
    subresources: { status: {} },
    additionalPrinterColumns: structuredClone(def.printerColumns),
    schema: structuredClone(schema),
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: {
        kind: def.kind,
        listKind: `${def.kind}List`,
        plural,
        singular: def.kind.toLowerCase(),
        shortNames: def.shortNames,
      },
      versions: [version(VERSION, true), ...SERVED_OLD_VERSIONS.map((v) => version(v, false))],
      conversion: { strategy: 'None' },
    },
  };
}
