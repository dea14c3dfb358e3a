// The durable half of Idempotency-Key (http/idempotency.ts keeps Redis as the fast path): a request with a key
// records it on what it creates, so a retry after Redis lost its record still gets the first answer. Only a hash
// of the caller and the key is kept, never the key, and the fingerprint of the route and body.
import type { KubeObject } from '../ports.js';

export interface IdempotencyMark {
  /** SHA-256 of the caller and the key. */
  keyHash: string;
  /** SHA-256 of the method, route and canonical body: the same key with another body is a client bug. */
  fingerprint: string;
}

/** On objects created synchronously (claims, pools, schedules, overrides, expiry policies); Operations keep it in spec. */
export const IDEMPOTENCY_ANNOTATION = 'beekeeper.io/idempotency';

export function markAnnotations(mark: IdempotencyMark | undefined): Record<string, string> {
  return mark
    ? { [IDEMPOTENCY_ANNOTATION]: JSON.stringify({ keyHash: mark.keyHash, fingerprint: mark.fingerprint }) }
    : {};
}

const isMark = (v: unknown): v is IdempotencyMark =>
  !!v && typeof (v as IdempotencyMark).keyHash === 'string' && typeof (v as IdempotencyMark).fingerprint === 'string';

export function readMark(obj: KubeObject): IdempotencyMark | undefined {
  const inSpec = (obj.spec as { idempotency?: unknown } | undefined)?.idempotency;
  if (obj.kind === 'Operation') return isMark(inSpec) ? inSpec : undefined;
  const raw = obj.metadata.annotations?.[IDEMPOTENCY_ANNOTATION];
  if (!raw) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isMark(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
