// Impersonation beyond `as`. client-node 1.4 reads a kubeconfig user's `as` (Impersonate-User) and drops `as-uid`,
// `as-groups` and `as-user-extra` without a word, so a hub configured to act as alice in group hive-admins was
// reached as alice alone: fewer rights, and 403s nobody could explain from the kubeconfig. They are read here from
// the kubeconfig text, and HubKubeConfig (hub-kubeconfig.ts) sends them as client-go sends them
// (k8s.io/client-go/transport/round_trippers.go): one
// Impersonate-Group line per group, one Impersonate-Extra-<key> line per value, the key's bytes that are not an HTTP
// token character (and '%') percent-encoded, which the API server decodes with url.PathUnescape.
import { parse } from 'yaml';

export interface Impersonation {
  uid?: string;
  groups: string[];
  extra: Record<string, string[]>;
}

const TOKEN_BYTE = /^[A-Za-z0-9!#$&'*+\-.^_`|~]$/;

export function headerKeyEscape(key: string): string {
  let out = '';
  for (const b of Buffer.from(key, 'utf8')) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && TOKEN_BYTE.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v == null ? [] : [String(v)]);

/** The impersonation fields client-node drops, by user name, from the kubeconfig's text. */
export function impersonationOf(text: string): Map<string, Impersonation> {
  const found = new Map<string, Impersonation>();
  const doc = parse(text) as { users?: Array<{ name?: unknown; user?: Record<string, unknown> }> } | null;
  for (const entry of Array.isArray(doc?.users) ? doc.users : []) {
    const user = entry?.user;
    if (typeof entry?.name !== 'string' || !user) continue;
    const uid = typeof user['as-uid'] === 'string' && user['as-uid'] ? user['as-uid'] : undefined;
    const groups = strings(user['as-groups']);
    const rawExtra = user['as-user-extra'];
    const extra: Record<string, string[]> = {};
    if (rawExtra && typeof rawExtra === 'object')
      for (const [k, v] of Object.entries(rawExtra as Record<string, unknown>)) extra[k] = strings(v);
    if (uid || groups.length || Object.keys(extra).length) found.set(entry.name, { uid, groups, extra });
  }
  return found;
}
