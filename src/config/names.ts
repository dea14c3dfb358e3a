// The name rules and roles that both the service's settings (schema.ts) and the `beekeeper` CLI check. A module of its
// own that imports nothing, so the standalone CLI bundle (packages/cli) takes these few lines and not the settings
// schema with TypeBox behind it.

/** A DNS label: hub names appear in URLs, job ids and queue names, so `.`, `/` and `:` are ruled out. */
export const HUB_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** Who holds an API token: it appears in logs and audit (the token never does). */
export const TOKEN_NAME = /^[A-Za-z0-9._-]{1,63}$/;

/** What a team member may do, each including the one before (src/auth/caller.ts). */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
/** A token may also be a platform admin's: every team, and what no team owns. */
export const TOKEN_ROLES = [...ROLES, 'platform-admin'] as const;
