// The Status bodies a Hive webhook denial turns into, built the way apimachinery builds them:
// field.Error.ErrorBody(), errors.NewInvalid(...).Status(), and kube-apiserver's webhookerrors.ToStatusErr,
// which prefixes `admission webhook "<name>" denied the request: `.

export type FieldErrorType = 'Invalid' | 'Required' | 'Forbidden';

export interface FieldError {
  type: FieldErrorType;
  field: string;
  value?: unknown;
  detail: string;
}

const TYPE_TEXT: Record<FieldErrorType, string> = {
  Invalid: 'Invalid value',
  Required: 'Required value',
  Forbidden: 'Forbidden',
};
const CAUSE_REASON: Record<FieldErrorType, string> = {
  Invalid: 'FieldValueInvalid',
  Required: 'FieldValueRequired',
  Forbidden: 'FieldValueForbidden',
};

export const invalid = (field: string, value: unknown, detail: string): FieldError => ({
  type: 'Invalid',
  field,
  value,
  detail,
});
export const required = (field: string, detail: string): FieldError => ({ type: 'Required', field, detail });
export const forbidden = (field: string, detail: string): FieldError => ({ type: 'Forbidden', field, detail });

/** Go's formatting of the bad value: strings quoted, scalars bare, nil as "null". */
function goValue(v: unknown): string {
  if (v === undefined || v === null) return '"null"';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** field.Error.ErrorBody: `Invalid value: "x": detail`, `Required value: detail`, `Forbidden: detail`. */
export function errorBody(e: FieldError): string {
  const head = e.type === 'Invalid' ? `${TYPE_TEXT[e.type]}: ${goValue(e.value)}` : TYPE_TEXT[e.type];
  return e.detail ? `${head}: ${e.detail}` : head;
}

/** errors.NewInvalid(GroupKind, name, errs).Status(): 422 Invalid with one cause per field error. */
export function invalidStatus(group: string, kind: string, name: string, errors: FieldError[]): Record<string, any> {
  const texts = errors.map((e) => `${e.field}: ${errorBody(e)}`);
  const aggregate = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${kind}.${group} ${JSON.stringify(name)} is invalid: ${aggregate}`,
    reason: 'Invalid',
    details: {
      name,
      group,
      kind,
      causes: errors.map((e) => ({ reason: CAUSE_REASON[e.type], message: errorBody(e), field: e.field })),
    },
    code: 422,
  };
}

/** The plain 400 BadRequest the Hive webhooks answer for checks that are not field errors. */
export function badRequestStatus(message: string): Record<string, any> {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'BadRequest',
    code: 400,
  };
}

/** webhookerrors.ToStatusErr: the webhook's Status, its message prefixed with the webhook's name. */
export function denied(webhook: string, status: Record<string, any>): { allowed: false; status: object } {
  return {
    allowed: false,
    status: {
      ...status,
      message: `admission webhook ${JSON.stringify(webhook)} denied the request: ${status.message}`,
    },
  };
}

/** validation.MaxLenError(63). */
export const maxLenError = (n: number): string => `must be no more than ${n} characters`;
