// Pieces several of Beekeeper's resources share, as the CRDs have always spelled them.
import { Type, type Static } from 'typebox';

/**
 * Rules only the CRD states. The API checks these values in the service instead, naming every bad field at once
 * with a reason a person can act on (422), or leaves a default to the API server. http/request-shape.ts drops
 * them; crd.ts applies them.
 */
export const crdOnly = (rules: Record<string, unknown>) => ({ 'x-crd-only': rules });

/** Rules only the API states (a request must say more than a resource written with kubectl). */
export const apiOnly = (rules: Record<string, unknown>) => ({ 'x-api-only': rules });

/** A Go duration as a CRD pattern can check it (the API checks the value itself, e.g. that it is positive). */
export const GO_DURATION_PATTERN = '^([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$';

/** One bad field and why (a 422's `errors`, a stored resource's `problems`). */
export const FieldIssueSchema = Type.Object({ field: Type.String(), reason: Type.String() });

/** A Kubernetes LabelSelector: matchLabels AND matchExpressions. */
export const LabelSelectorSchema = Type.Object({
  matchLabels: Type.Optional(Type.Record(Type.String(), Type.String())),
  matchExpressions: Type.Optional(
    Type.Array(
      Type.Object({
        key: Type.String(),
        operator: Type.Union([
          Type.Literal('In'),
          Type.Literal('NotIn'),
          Type.Literal('Exists'),
          Type.Literal('DoesNotExist'),
        ]),
        values: Type.Optional(Type.Array(Type.String())),
      }),
    ),
  ),
});

/** The one LabelSelector type (src/hive/label-selector.ts matches it). */
export type LabelSelector = Static<typeof LabelSelectorSchema>;
