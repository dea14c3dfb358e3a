// Ajv's validation errors as the API reports them: one `{field, reason}` per field and reason, fields dotted as the
// caller wrote them (the problem builder writes array items in brackets, as every other error names them).
import type { FastifyError } from 'fastify';

type AjvIssue = NonNullable<FastifyError['validation']>[number];

/**
 * One issue per field and reason. A union of literals (TypeBox's enums) makes ajv report "must be equal to
 * constant" once per literal and then "must match a schema in anyOf"; that becomes "must be one of a, b, c". A
 * union of types (string or null) becomes "must be string or null"; a value of another type than an enum's gets the
 * "must be one of" alone. When the value has the type of one branch, only that branch's complaints are kept (an
 * unknown field of the object, not "must be null").
 */
export function validationIssues(validation: AjvIssue[]): Array<{ field: string; reason: string }> {
  const allowed = new Map<string, unknown[]>();
  const types = new Map<string, string[]>();
  for (const v of validation) {
    const field = fieldOf(v.instancePath, v.params);
    if (v.keyword === 'const') allowed.set(field, [...(allowed.get(field) ?? []), v.params?.allowedValue]);
    if (v.keyword === 'type') types.set(field, [...new Set([...(types.get(field) ?? []), String(v.params?.type)])]);
  }
  // A complaint inside the value, or about its properties, comes from a branch whose type the value has.
  const branchMatched = (path: string) =>
    validation.some(
      (v) =>
        v.instancePath.startsWith(`${path}/`) ||
        (v.instancePath === path && !['type', 'anyOf', 'const'].includes(v.keyword)),
    );
  const seen = new Set<string>();
  const out: Array<{ field: string; reason: string }> = [];
  for (const v of validation) {
    const field = fieldOf(v.instancePath, v.params);
    const union =
      v.keyword === 'anyOf' ||
      ((v.keyword === 'type' || v.keyword === 'const') &&
        validation.some((a) => a.keyword === 'anyOf' && a.instancePath === v.instancePath));
    if (union && v.keyword !== 'const' && branchMatched(v.instancePath)) continue;
    const values = allowed.get(field);
    const kinds = types.get(field);
    // A value of another type than an enum's: each literal's type complaint is said by "must be one of".
    if (values && v.keyword === 'type') continue;
    let reason = v.keyword === 'additionalProperties' ? 'unknown field' : (v.message ?? 'is invalid');
    if (values && (v.keyword === 'const' || v.keyword === 'anyOf'))
      reason = `must be one of ${values.map((x) => JSON.stringify(x)).join(', ')}`;
    else if (kinds && kinds.length > 1 && (v.keyword === 'type' || v.keyword === 'anyOf'))
      reason = `must be ${kinds.join(' or ')}`;
    if (seen.has(`${field}\0${reason}`)) continue;
    seen.add(`${field}\0${reason}`);
    out.push({ field, reason });
  }
  return out;
}

/** `/platform/aws/region` as `platform.aws.region`; a JSON Pointer escapes `/` and `~` in keys (RFC 6901). */
function fieldOf(instancePath: string, params: Record<string, unknown> | undefined): string {
  const base = instancePath
    .split('/')
    .filter(Boolean)
    .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
  const extra = params?.missingProperty ?? params?.additionalProperty;
  return typeof extra === 'string' ? (base ? `${base}.${extra}` : extra) : base;
}
