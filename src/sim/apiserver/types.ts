import type { Shape } from './serialize.js';
import type { TimeField } from './typed-fields.js';

/** The schema engine's contract (src/sim/apiserver/schema, written separately). */
export interface SchemaCause {
  reason: string;
  message: string;
  field: string;
}
export interface CompiledSchema {
  validate(
    obj: unknown,
    opts: { fieldValidation: 'Strict' | 'Warn' | 'Ignore'; root?: string },
  ): {
    causes: SchemaCause[];
    unknownFields: string[];
    value: any;
  };
}

export interface ScaleSpec {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** One served resource (group/version/plural), built-in or from a CustomResourceDefinition. */
export interface ResourceType {
  group: string;
  version: string;
  resource: string;
  kind: string;
  listKind: string;
  singular: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  verbs: string[];
  /** Which table holds the objects; two versions of one kind (core/v1 and events.k8s.io/v1 Events) share one. */
  storageKey: string;
  statusSubresource: boolean;
  scale?: ScaleSpec;
  builtin?: BuiltinBehaviour;
  custom?: {
    schema?: CompiledSchema;
    openAPIV3Schema?: any;
    storageVersionHash: string;
    /** The CRD's storage version now: what a write stores the object as (older objects keep theirs until rewritten). */
    storageVersion: string;
    /** Set on a deprecated version: the Warning every request to it gets. */
    deprecationWarning?: string;
    printerColumns?: any[];
  };
  storageVersionHash?: string;
}

export interface BuiltinBehaviour {
  shape: Shape;
  /** Server defaults applied on create (and on update for fields the API server always fills). */
  defaults?(obj: any, op: 'create' | 'update'): void;
  /** The kind's OpenAPI schema (schema-kinds.ts): unknown fields, defaults and causes as for custom resources. */
  schema?: CompiledSchema;
  /** The Go decoder's type error for this body, if any (a 400 before validation). */
  decodeError?(obj: any): string | undefined;
  /** Kind-specific validation; returns causes like the schema engine. */
  validate?(obj: any): SchemaCause[];
  /** Convert from the storage form to this version's form and back (events.k8s.io/v1 Events). */
  toStorage?(obj: any): any;
  fromStorage?(obj: any): any;
  /** metadata.generation is maintained (custom resources always; few built-ins). */
  hasGeneration?: boolean;
  /** Fields never tracked in managedFields for this kind (set by the server's strategy). */
  untrackedPaths?: string[][];
  /** Sub-objects that are atomic (owned as a whole) in managedFields. */
  atomicPaths?: string[][];
  /** Struct-valued fields that never get their own "." ownership entry. */
  structPaths?: string[][];
  /** metav1.Time and metav1.MicroTime fields, which the decoder parses (typed-fields.ts). */
  timeFields?: TimeField[];
}

export interface Identity {
  username: string;
  groups: string[];
}
