// Idempotency-Keys recorded in Kubernetes (services/idempotency), for the HTTP edge: the object a key created,
// found in the informer caches, answered again by the feature that created it.
import type { DurableKeys } from '../http/idempotency.js';
import type { MarkIndex } from '../services/idempotency/mark-index.js';
import type { CachedKind } from '../services/ports.js';
import type { Replayer } from './features.js';

export function durableKeys(index: MarkIndex, replays: Partial<Record<CachedKind, Replayer>>): DurableKeys {
  return (keyHash) => {
    const found = index.find(keyHash);
    const replay = found && replays[found.kind];
    if (!found || !replay) return undefined;
    return { fingerprint: found.mark.fingerprint, answer: () => replay(found.hub, found.object) };
  };
}
