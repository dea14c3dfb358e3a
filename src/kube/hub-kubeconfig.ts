// The KubeConfig every hub is loaded into (kubeconfig.ts): client-node's, with what client-go does and client-node
// does not, whichever path sends the request (undici, node-fetch for a proxy-url, client-node's own Watch): the whole
// of the user's impersonation (impersonation.ts) and an exec plugin's credential held as client-go holds it
// (exec-credential.ts).
import { KubeConfig } from '@kubernetes/client-node';
import { ExecAuth } from '@kubernetes/client-node/dist/exec_auth.js';
import { HeldExecAuth, type SentCredential } from './exec-credential.js';
import { headerKeyEscape, type Impersonation } from './impersonation.js';

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
