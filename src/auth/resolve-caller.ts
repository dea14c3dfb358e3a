// Identity → Caller: the team roles the configuration gives a signed-in identity. A static token states its own
// team and role; OIDC users and ServiceAccounts get theirs from `teams[].members` (by user name, group or
// ServiceAccount) and `auth.platformAdmins`. When several entries name the same team, the highest role wins.
import type { Config } from '../config.js';
import { roleAtLeast, type Caller, type Grant, type Identity, type Role } from './caller.js';

type AccessConfig = Pick<Config, 'teams'> & { auth: Pick<Config['auth'], 'platformAdmins'> };

export function resolveCaller(identity: Identity, config: AccessConfig): Caller {
  const grants = new Map<string, Role>();
  const add = (team: string, role: Role) => {
    const held = grants.get(team);
    if (!held || !roleAtLeast(held, role)) grants.set(team, role);
  };
  let platformAdmin = false;
  if (identity.token) {
    if (identity.token.role === 'platform-admin') platformAdmin = true;
    else if (identity.token.team) add(identity.token.team, identity.token.role);
  }
  const sa = identity.subject.kind === 'ServiceAccount' ? `${identity.subject.namespace}/${identity.subject.name}` : '';
  const groups = new Set(identity.groups);
  for (const team of config.teams) {
    for (const m of team.members ?? []) {
      const matches =
        (m.user !== undefined && m.user === identity.name) ||
        (m.group !== undefined && groups.has(m.group)) ||
        (m.serviceAccount !== undefined && m.serviceAccount === sa);
      if (matches) add(team.name, m.role);
    }
  }
  if (identity.via !== 'token') {
    const admins = config.auth.platformAdmins;
    if (admins.users.includes(identity.name) || admins.groups.some((g) => groups.has(g))) platformAdmin = true;
  }
  const list: Grant[] = [...grants].map(([team, role]) => ({ team, role }));
  return { ...identity, grants: list, platformAdmin };
}
