// The few domain errors every layer speaks. The gateway maps Kubernetes Status replies to them once, HTTP maps
// them to problem+json once, the worker maps them to retry / give up once (ARCHITECTURE.md, "Errors").

export interface FieldIssue {
  /** Dotted path of the offending field as the caller sent it, e.g. `platform.aws.region`. */
  field: string;
  reason: string;
}

export class DomainError extends Error {
  readonly code: 'NotFound' | 'Conflict' | 'Invalid' | 'Forbidden' | 'QuotaExceeded' | 'Unavailable' = 'Invalid';
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

/**
 * The hub's own 409 with `reason: Conflict` (what client-go's errors.IsConflict tests): a write's precondition, the
 * resourceVersion or uid it named, no longer holds because someone wrote the object meanwhile. Unlike a refusal
 * (a Conflict Beekeeper decides, or AlreadyExists) it is worth reading again and judging again.
 */
export class WriteConflict extends Conflict {}

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

/** Which team quota a request would exceed (src/services/quotas), for the 403 body. */
export interface QuotaDetails {
  team: string;
  quota: 'claims' | 'clusters' | 'runningClusters' | 'maxLifetimeHours';
  limit: number;
  /** What the team holds now; for maxLifetimeHours, the lifetime asked for (hours). */
  current: number;
  /** What the request would add (counts only). */
  requested?: number;
}

/** A team's quota refuses the request: 403 like Forbidden, with the limit and the current use. */
export class QuotaExceeded extends DomainError {
  override readonly code = 'QuotaExceeded' as const;
  constructor(
    message: string,
    readonly quota: QuotaDetails,
  ) {
    super(message);
  }
}

export class Unavailable extends DomainError {
  override readonly code = 'Unavailable' as const;
  /**
   * The hub answered and asked to be left alone for `retryAfterSeconds` (429, or 503 with Retry-After): it is up and
   * pacing us (API Priority and Fairness), and did not act on the request. Not a failure to count, a wait to honour.
   */
  readonly throttled: boolean;
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
    options?: { cause?: unknown; throttled?: boolean },
  ) {
    super(message, options);
    this.throttled = options?.throttled ?? false;
  }
}

/** Build an Invalid for one field in one line: `invalid('lifetime', 'exceeds the pool maximum 8h')`. */
export function invalid(field: string, reason: string): Invalid {
  return new Invalid(`${field}: ${reason}`, [{ field, reason }]);
}
