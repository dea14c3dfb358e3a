// The few domain errors every layer speaks. The gateway maps Kubernetes Status replies to them once, HTTP maps
// them to problem+json once, the worker maps them to retry / give up once (ARCHITECTURE.md, "Errors").

export interface FieldIssue {
  /** Dotted path of the offending field as the caller sent it, e.g. `platform.aws.region`. */
  field: string;
  reason: string;
}

export class DomainError extends Error {
  readonly code: 'NotFound' | 'Conflict' | 'Invalid' | 'Forbidden' | 'Unavailable' = 'Invalid';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class NotFound extends DomainError {
  override readonly code = 'NotFound' as const;
}

export class Conflict extends DomainError {
  override readonly code = 'Conflict' as const;
}

export class Invalid extends DomainError {
  override readonly code = 'Invalid' as const;
  constructor(
    message: string,
    readonly fields: FieldIssue[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export class Forbidden extends DomainError {
  override readonly code = 'Forbidden' as const;
}

export class Unavailable extends DomainError {
  override readonly code = 'Unavailable' as const;
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Build an Invalid for one field in one line: `invalid('lifetime', 'exceeds the pool maximum 8h')`. */
export function invalid(field: string, reason: string): Invalid {
  return new Invalid(`${field}: ${reason}`, [{ field, reason }]);
}
