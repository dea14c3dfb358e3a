// authentication.k8s.io/v1 TokenReview through a hub's own connection and request gate: the hub's API server says
// who a bearer token (a pod's ServiceAccount token) belongs to. The token travels only in the request body; failures
// are mapped like every other call and name no token.
import type { Hub } from './hub.js';
import { toDomainError } from './map-error.js';

export interface TokenReviewStatus {
  authenticated?: boolean;
  user?: { username?: string; uid?: string; groups?: string[] };
  audiences?: string[];
  error?: string;
}

export async function reviewToken(hub: Hub, token: string, audiences?: readonly string[]): Promise<TokenReviewStatus> {
  try {
    const review = await hub.gate.run(() =>
      hub.rest.request<{ status?: TokenReviewStatus }>('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
        body: {
          apiVersion: 'authentication.k8s.io/v1',
          kind: 'TokenReview',
          spec: { token, ...(audiences?.length ? { audiences } : {}) },
        },
      }),
    );
    return review?.status ?? {};
  } catch (err) {
    throw toDomainError(err, `TokenReview on hub ${hub.name}`);
  }
}
