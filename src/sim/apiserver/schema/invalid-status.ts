import { causeText, type StatusCause } from './field-error.js';

export interface InvalidStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: 'Invalid';
  details: { name: string; group?: string; kind: string; causes: StatusCause[] };
  code: 422;
}

/**
 * The 422 body of apierrors.NewInvalid: `Kind.group "name" is invalid: <cause>` for one distinct cause and
 * `[c1, c2, ...]` for several (goldens 13 and 16). Like utilerrors.Aggregate, repeated cause texts are printed once
 * while every cause stays in details (golden 66). The core group prints as just the Kind.
 */
export function invalidStatus(args: {
  kind: string;
  group: string;
  name: string;
  causes: StatusCause[];
}): InvalidStatus {
  const { kind, group, name, causes } = args;
  const qualifiedKind = group ? `${kind}.${group}` : kind;
  const texts = [...new Set(causes.map(causeText))];
  let message = `${qualifiedKind} ${JSON.stringify(name)} is invalid`;
  if (texts.length === 1) message += `: ${texts[0]}`;
  else if (texts.length > 1) message += `: [${texts.join(', ')}]`;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Invalid',
    details: { name, ...(group ? { group } : {}), kind, causes },
    code: 422,
  };
}
