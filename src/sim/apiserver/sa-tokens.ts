// ServiceAccount tokens as kube-apiserver issues them (pkg/serviceaccount/claims.go): an ES256-signed JWT with the
// API server's issuer, the audiences asked for, exp/iat/nbf and the `kubernetes.io` claim naming the namespace and
// the ServiceAccount with its uid. Checking one verifies the signature and the times, and that the ServiceAccount
// still exists with that uid, so deleting it revokes its tokens as upstream (legacy.go / claims.go Validate).
import { createHash, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { Store } from './store.js';
import { objectKey } from './store.js';
import type { Identity } from './types.js';

/** The API server's own issuer and audience (--service-account-issuer, --api-audiences default). */
export const API_ISSUER = 'https://kubernetes.default.svc.cluster.local';
export const API_AUDIENCES = [API_ISSUER];

export type TokenCheck = { identity: Identity & { uid: string }; audiences: string[] } | { error: string };

export interface ServiceAccountTokens {
  issue(sa: { namespace: string; name: string; uid: string }, audiences: string[], expirationSeconds: number): string;
  /** undefined when the token is not a JWT of this server's issuer (another authenticator may know it). */
  check(token: string): TokenCheck | undefined;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

export function createServiceAccountTokens(store: Store, clock: Clock): ServiceAccountTokens {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const kid = createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
  const signer: KeyObject = privateKey;
  return {
    issue(sa, audiences, expirationSeconds) {
      const now = Math.floor(clock.now() / 1000);
      const header = b64({ alg: 'ES256', kid });
      const payload = b64({
        aud: audiences,
        exp: now + expirationSeconds,
        iat: now,
        iss: API_ISSUER,
        'kubernetes.io': { namespace: sa.namespace, serviceaccount: { name: sa.name, uid: sa.uid } },
        nbf: now,
        sub: `system:serviceaccount:${sa.namespace}:${sa.name}`,
      });
      const signature = sign('sha256', Buffer.from(`${header}.${payload}`), { key: signer, dsaEncoding: 'ieee-p1363' });
      return `${header}.${payload}.${signature.toString('base64url')}`;
    },
    check(token) {
      const parts = token.split('.');
      if (parts.length !== 3) return undefined;
      let claims: any;
      try {
        const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
        claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
        if (header?.kid !== kid || claims?.iss !== API_ISSUER) return undefined;
      } catch {
        return undefined;
      }
      const signed = verify(
        'sha256',
        Buffer.from(`${parts[0]}.${parts[1]}`),
        { key: publicKey, dsaEncoding: 'ieee-p1363' },
        Buffer.from(parts[2]!, 'base64url'),
      );
      if (!signed) return { error: 'invalid bearer token, square/go-jose: error in cryptographic primitive' };
      const now = Math.floor(clock.now() / 1000);
      if (typeof claims.exp !== 'number' || now > claims.exp)
        return { error: 'invalid bearer token, service account token has expired' };
      if (typeof claims.nbf === 'number' && now < claims.nbf)
        return { error: 'invalid bearer token, service account token is not valid yet' };
      const ref = claims['kubernetes.io'];
      const namespace = ref?.namespace;
      const name = ref?.serviceaccount?.name;
      const sa = store.get('/serviceaccounts', objectKey(namespace, name))?.obj;
      if (!sa || sa.metadata.deletionTimestamp)
        return { error: `invalid bearer token, serviceaccounts "${name}" not found` };
      if (sa.metadata.uid !== ref.serviceaccount.uid)
        return {
          error: `invalid bearer token, service account UID (${ref.serviceaccount.uid}) does not match claim (${sa.metadata.uid})`,
        };
      return {
        identity: {
          username: `system:serviceaccount:${namespace}:${name}`,
          uid: sa.metadata.uid,
          groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
        },
        audiences: Array.isArray(claims.aud) ? claims.aud : [claims.aud],
      };
    },
  };
}
