// What the routes of Beekeeper's own objects (schedules, expiry policies, webhooks, relocations) and of a cluster's
// overrides and expiry share for teams: the `team` a request may name, and the access marker saying the handler
// (its service, services/team-scope.ts) checks the caller itself, by the object's team label or the cluster's team.
import { Type } from 'typebox';
import { DNS_LABEL } from '../../hive/names.js';

/** A route's `config`: access is checked in the handler (the object's team is known only once it is read). */
export const inHandler = (why: string) => ({ access: { handled: 'in-handler' as const, why } });

export const TeamField = Type.String({
  minLength: 1,
  maxLength: 63,
  pattern: DNS_LABEL.source,
  description:
    "The team that owns it (label beekeeper.io/team); it then acts on that team's clusters only. Default: your " +
    'one team where you are admin; name it when you are admin in several. A platform admin may name any team, or ' +
    'none for a platform-wide object. On a replace, only a platform admin may change it.',
});
