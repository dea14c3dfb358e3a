// An exec credential plugin's credential kept as client-go keeps it. client-node 1.4's ExecAuth keeps a credential
// only until its expirationTimestamp and drops one that has none (Date.parse(undefined) is NaN), so a plugin that
// prints no expiry (many do: a static token from a vault, `oc whoami -t`) ran once per hub request. client-go's exec
// authenticator (plugin/pkg/client/auth/exec) keeps such a credential until the server answers 401, then runs the
// plugin again; a 401 for a credential already replaced does not run it again. Concurrent asks share one run.
//
// The plugin is still run by client-node's own ExecAuth (same command, args, env, errors), so only when it runs
// changes here.
import type https from 'node:https';
import type { User } from '@kubernetes/client-node';
import type { Authenticator } from '@kubernetes/client-node/dist/auth.js';
import { ExecAuth, type Credential } from '@kubernetes/client-node/dist/exec_auth.js';

interface Held {
  credential: Credential;
  /** ms since the epoch; undefined for a credential kept until a 401. */
  expiresAt?: number;
}

/** What a request carried of the credentials: a 401 refuses that credential, not one that has replaced it. */
export interface SentCredential {
  authorization?: string;
  cert?: unknown;
}

export class HeldExecAuth implements Authenticator {
  private readonly held = new Map<string, Held>();
  private readonly running = new Map<string, Promise<Held>>();

  private readonly plugin = new ExecAuth();

  constructor(private readonly now: () => number = Date.now) {}

  isAuthProvider(user: User): boolean {
    return this.plugin.isAuthProvider(user);
  }

  /** As ExecAuth.applyAuthentication, from the held credential. */
  async applyAuthentication(user: User, opts: https.RequestOptions): Promise<void> {
    const held = await this.credential(user);
    if (!held) return;
    const { token, clientCertificateData, clientKeyData } = held.credential.status;
    if (clientCertificateData) opts.cert = clientCertificateData;
    if (clientKeyData) opts.key = clientKeyData;
    if (token) opts.headers = { ...opts.headers, Authorization: `Bearer ${token}` };
  }

  /**
   * The hub answered 401 to a request that carried `sent`: if that is the held credential, forget it, so the next
   * ask runs the plugin; requests refused together forget it once. False when the user has no plugin (nothing a
   * new ask could change).
   */
  refused(user: User, sent: SentCredential): boolean {
    if (!this.isAuthProvider(user)) return false;
    const held = this.held.get(user.name);
    const { token, clientCertificateData } = held?.credential.status ?? {};
    const same = token ? sent.authorization === `Bearer ${token}` : String(sent.cert) === clientCertificateData;
    if (held && same) this.held.delete(user.name);
    return true;
  }

  private async credential(user: User): Promise<Held | undefined> {
    const held = this.held.get(user.name);
    if (held && (held.expiresAt === undefined || held.expiresAt > this.now())) return held;
    let running = this.running.get(user.name);
    if (!running) {
      running = this.run(user).finally(() => this.running.delete(user.name));
      this.running.set(user.name, running);
    }
    return running;
  }

  private async run(user: User): Promise<Held> {
    // A new ExecAuth each run: its own cache would answer a run asked for after a 401 with the refused credential
    // while that is unexpired. getCredential is private in the typings only.
    const plugin = new ExecAuth() as unknown as { getCredential(u: User): Promise<Credential | null> };
    const credential = await plugin.getCredential(user);
    if (!credential?.status) throw new Error('the exec credential plugin printed no credential');
    const stamp = credential.status.expirationTimestamp;
    const fresh: Held = { credential, expiresAt: stamp ? Date.parse(stamp) : undefined };
    this.held.set(user.name, fresh);
    return fresh;
  }
}
