// Job payloads live in Redis in clear text and appear on the queue dashboard, so they must never carry a
// secret: handlers read credentials from Kubernetes Secrets by reference instead.
import { Invalid } from '../hive/errors.js';

const SECRET_KEYS = [
  'kubeconfig',
  'kubeconfigData',
  'password',
  'passwd',
  'token',
  'bearerToken',
  'pullSecret',
  'privateKey',
  'sshPrivateKey',
  'clientKey',
  'clientSecret',
  'secretAccessKey',
  'awsSecretAccessKey',
  'stringData',
];
const SECRET_KEY = new RegExp(`^(${SECRET_KEYS.join('|')})$`, 'i');

/** Throws Invalid naming every secret-looking key (dotted paths), so the caller can fix them all at once. */
export function assertNoSecrets(payload: Record<string, unknown>): void {
  const found: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        const p = path ? `${path}.${k}` : k;
        if (SECRET_KEY.test(k)) found.push(p);
        else walk(v, p);
      }
    }
  };
  walk(payload, '');
  if (found.length > 0) {
    throw new Invalid(
      'job payloads must not carry secrets; pass a reference to a Secret instead',
      found.map((field) => ({ field, reason: 'secret values are not allowed in job payloads' })),
    );
  }
}
