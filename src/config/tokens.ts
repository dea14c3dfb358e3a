// API tokens: `name=token,...` from BEEKEEPER_API_TOKENS, or a list of { name, token } in the file.
import type { Issues, Source } from './fields.js';

export interface ApiToken {
  /** Who holds it; appears in logs and audit, the token never does. */
  name: string;
  token: string;
}

export function readTokens(src: Source | undefined, issues: Issues): ApiToken[] {
  if (src === undefined) return [];
  const entries: unknown[] =
    typeof src.value === 'string'
      ? src.value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .map((s) => {
            const eq = s.indexOf('=');
            return eq > 0 ? { name: s.slice(0, eq), token: s.slice(eq + 1) } : { name: s };
          })
      : Array.isArray(src.value)
        ? src.value
        : [src.value];
  const tokens: ApiToken[] = [];
  entries.forEach((e, i) => {
    const { name, token } = (e && typeof e === 'object' ? e : {}) as { name?: unknown; token?: unknown };
    if (typeof name !== 'string' || !/^[A-Za-z0-9._-]{1,63}$/.test(name)) {
      issues.add(src.from, `entry ${i + 1} needs a name (letters, digits, . _ -), written name=token`);
    } else if (typeof token !== 'string' || token.length < 16) {
      issues.add(src.from, `token for ${name} must be at least 16 characters`);
    } else tokens.push({ name, token });
  });
  return tokens;
}
