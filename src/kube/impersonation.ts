// Impersonation beyond `as`. client-node 1.4 reads a kubeconfig user's `as` (Impersonate-User) and drops `as-uid`,
// `as-groups` and `as-user-extra` without a word, so a hub configured to act as alice in group hive-admins was
// reached as alice alone: fewer rights, and 403s nobody could explain from the kubeconfig. They are read here from
// the kubeconfig text and sent as client-go sends them (k8s.io/client-go/transport/round_trippers.go): one
// Impersonate-Group line per group, one Impersonate-Extra-<key> line per value, the key's bytes that are not an HTTP
// token character (and '%') percent-encoded, which the API server decodes with url.PathUnescape.
import { KubeConfig } from '@kubernetes/client-node';
import { ExecAuth } from '@kubernetes/client-node/dist/exec_auth.js';
import { parse } from 'yaml';
import { HeldExecAuth, type SentCredential } from './exec-credential.js';

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

/**
 * A KubeConfig whose requests carry the whole of the user's impersonation, whichever path sends them, and whose exec
 * credential plugin runs as client-go runs it (exec-credential.ts).
 */
export class HubKubeConfig extends KubeConfig {
  impersonation = new Map<string, Impersonation>();
  readonly exec = new HeldExecAuth();

  constructor() {
    super();
    // client-node asks the first authenticator that claims the user, and custom ones only after its own: the held
    // one takes ExecAuth's place (a private field, set in KubeConfig's constructor).
    const own = this as unknown as { authenticators: Array<{ isAuthProvider: unknown }> };
    own.authenticators = own.authenticators.map((a) => (a instanceof ExecAuth ? this.exec : a));
  }

  /** Whether the current user's credential comes from an exec plugin (held until a 401: credentialRefused). */
  hasExecPlugin(): boolean {
    const user = this.getCurrentUser();
    return !!user && this.exec.isAuthProvider(user);
  }

  /** The hub answered 401 to a request that carried `sent`: true when asking again may bring a new credential. */
  credentialRefused(sent: SentCredential): boolean {
    const user = this.getCurrentUser();
    return !!user && this.exec.refused(user, sent);
  }

  // applyToFetchOptions (the proxy-url transport, client-node's Watch) calls this too.
  override async applyToHTTPSOptions(opts: Parameters<KubeConfig['applyToHTTPSOptions']>[0]): Promise<void> {
    await super.applyToHTTPSOptions(opts);
    const name = this.getCurrentUser()?.name;
    const imp = name === undefined ? undefined : this.impersonation.get(name);
    if (!imp) return;
    const headers = (opts.headers ??= {}) as Record<string, string | string[]>;
    if (imp.uid) headers['Impersonate-Uid'] = imp.uid;
    if (imp.groups.length) headers['Impersonate-Group'] = imp.groups;
    for (const [key, values] of Object.entries(imp.extra))
      if (values.length) headers[`Impersonate-Extra-${headerKeyEscape(key)}`] = values;
  }
}
