// What a caller may claim from, and whom Hive should let into the claimed cluster.
//
// Hive binds a claim's `spec.subjects` to the admin role in the claimed cluster's namespace on the hub
// (REFERENCE.md §5): whoever is named there reads the admin kubeconfig Secret directly, as Hive intends. So the
// subjects are exactly those Beekeeper itself would let read that kubeconfig (the operator role in the pool's team):
// - the claiming caller's own subject (an OIDC user, a ServiceAccount from a TokenReview, a static token's name as a
//   User), so the claimant can use the hub directly;
// - when the caller claims as a member of the pool's team, the identity-provider groups the configuration makes
//   operators or admins of that team (teams[].members[].group), so teammates can take over the cluster.
// No Group is invented from the team's name: a Kubernetes group of that name may hold anyone, and binding it would
// hand an admin kubeconfig to people Beekeeper never let in. Open access (anonymous) adds no subject.
import { Forbidden } from '../hive/errors.js';
import { refId } from '../hive/object-ref.js';
import type { ClaimAccess } from '../services/claims/claim-create.js';
import type { SubjectRequest } from '../services/claims/claim-request.js';
import type { NamespacedRef } from '../services/ports.js';
import { maySee, ownerOf, type Ownership } from './authorize.js';
import { roleAtLeast, roleIn, type Caller } from './caller.js';

/** Claims need the operator role in the pool's team (access.md). */
const CLAIM_ROLE = 'operator';

export function claimSubjects(caller: Caller, team: string | undefined, deps: Ownership): SubjectRequest[] {
  if (caller.via === 'open') return [];
  const out: SubjectRequest[] = [caller.subject];
  if (team === undefined || !caller.grants.some((g) => g.team === team)) return out;
  const config = deps.teams.teams.find((t) => t.name === team);
  for (const m of config?.members ?? []) {
    if (m.group !== undefined && roleAtLeast(m.role, CLAIM_ROLE)) out.push({ kind: 'Group', name: m.group });
  }
  return out;
}

export function claimAccess(caller: Caller, deps: Ownership): ClaimAccess {
  const team = (pool: NamespacedRef) => ownerOf(deps, 'pool', pool);
  return {
    sees: (pool) => maySee(caller, team(pool)),
    refusal(pool) {
      const held = roleIn(caller, team(pool));
      if (held === undefined || roleAtLeast(held, CLAIM_ROLE)) return undefined;
      return new Forbidden(
        `claiming from pool ${refId(pool)} needs the ${CLAIM_ROLE} role in team ${team(pool)}; you have ${held}`,
      );
    },
    subjects: (pool) => claimSubjects(caller, team(pool), deps),
  };
}
