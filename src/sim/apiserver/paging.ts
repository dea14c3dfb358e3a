// Continue tokens in the real format: base64url (no padding) of {"v":"meta.k8s.io/v1","rv":N,"start":"<key>\u0000"},
// where key is relative to the listed prefix (golden 50). rv -1 means "continue without snapshot" (golden 60).
import { badRequest } from './status.js';

export interface ContinueToken {
  rv: number;
  start: string;
}

export const encodeContinue = (rv: number, start: string) =>
  Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url');

export function decodeContinue(token: string): ContinueToken {
  try {
    const json = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (json.v !== 'meta.k8s.io/v1' || typeof json.start !== 'string' || typeof json.rv !== 'number')
      throw new Error('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
    return { rv: json.rv, start: json.start };
  } catch (err) {
    throw badRequest(
      `invalid continue token: ${(err as Error).message.startsWith('continue key') ? '' : 'continue key is not valid: '}${(err as Error).message}`,
    );
  }
}

/** First index in sorted `keys` whose value is >= `target`. */
export function lowerBound(keys: string[], target: string): number {
  let lo = 0,
    hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
