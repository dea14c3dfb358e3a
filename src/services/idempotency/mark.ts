// What a request with an Idempotency-Key records on what it creates: a hash of the caller and the key (never the
// key itself) and the fingerprint of the route and body.

export interface IdempotencyMark {
  /** SHA-256 of the caller and the key. */
  keyHash: string;
  /** SHA-256 of the method, route and canonical body: the same key with another body is a client bug. */
  fingerprint: string;
}
