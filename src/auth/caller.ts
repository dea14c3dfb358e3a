// Who is asking, once signed in: the one shape every layer sees (request.caller). Sign-in (src/auth/sign-in*)
// produces an Identity; resolveCaller (resolve-caller.ts) turns it into a Caller with the team roles the
// configuration gives it. Authorization (src/auth/authorize*) reads only the Caller.
import type { ROLES } from '../config/schema.js';

/** viewer < operator < admin, per team. Platform admins are not a team role: see Caller.platformAdmin. */
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };

/** Whether `held` includes what `needed` allows. */
export const roleAtLeast = (held: Role, needed: Role): boolean => RANK[held] >= RANK[needed];

/** How Kubernetes RBAC names the caller (a ClusterClaim's spec.subjects entry, rbac/v1 Subject). */
export type Subject =
  | { kind: 'User'; name: string }
  | { kind: 'Group'; name: string }
  | { kind: 'ServiceAccount'; name: string; namespace: string };

/** What sign-in established, before the configuration's teams are applied. */
export interface Identity {
  /** Shown in logs and audit: a token's name, an OIDC username, `system:serviceaccount:<ns>:<name>`. */
  name: string;
  via: 'token' | 'oidc' | 'serviceaccount' | 'open';
  /** Groups the identity provider reports (OIDC groups claim, TokenReview status.user.groups). */
  groups: readonly string[];
  subject: Subject;
  /** A static token's own team and role (config auth.tokens). */
  token?: { team?: string; role: Role | 'platform-admin' };
}

export interface Grant {
  team: string;
  role: Role;
}

export interface Caller extends Identity {
  /** Every team the caller belongs to, with the highest role it has there. */
  grants: readonly Grant[];
  /** Spans teams: sees and may do everything, including what no team owns. */
  platformAdmin: boolean;
}

/** The caller when access is open (auth.open): a platform admin, as the API was before sign-in existed. */
export const OPEN_CALLER: Caller = Object.freeze<Caller>({
  name: 'anonymous',
  via: 'open',
  groups: [],
  subject: { kind: 'User', name: 'anonymous' },
  grants: [],
  platformAdmin: true,
});

/** The caller's role in a team, if any (platform admins: admin everywhere). */
export function roleIn(caller: Caller, team: string | undefined): Role | undefined {
  if (caller.platformAdmin) return 'admin';
  if (team === undefined) return undefined;
  return caller.grants.find((g) => g.team === team)?.role;
}
