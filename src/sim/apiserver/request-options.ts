// The options objects a write carries (CreateOptions, UpdateOptions, PatchOptions, DeleteOptions) are validated
// before anything else, and an invalid one is a 422 on the options kind of group meta.k8s.io
// (apimachinery/pkg/apis/meta/v1/validation).
import { invalid, type StatusCause } from './status.js';

export type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

/** Go's %#v of a []string: []string{"a", "b"}. */
export const goStringSliceSyntax = (list: unknown[]) =>
  `[]string{${list.map((v) => JSON.stringify(String(v))).join(', ')}}`;

/** ValidateDryRun: "All" is the only value. */
export function dryRunCauses(dryRun: unknown[]): StatusCause[] {
  if (dryRun.every((d) => d === 'All')) return [];
  return [
    {
      reason: 'FieldValueNotSupported',
      field: 'dryRun',
      message: `Unsupported value: ${goStringSliceSyntax(dryRun)}: supported values: "All"`,
    },
  ];
}

export function optionsInvalid(kind: OptionsKind, causes: StatusCause[]) {
  return invalid({ group: 'meta.k8s.io', resource: kind.toLowerCase(), kind }, '', causes);
}

/** Create, update and patch take their options from the query. */
export function checkWriteOptions(kind: Exclude<OptionsKind, 'DeleteOptions'>, query: URLSearchParams): void {
  const causes = dryRunCauses(query.getAll('dryRun'));
  if (causes.length) throw optionsInvalid(kind, causes);
}
