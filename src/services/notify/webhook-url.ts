// Webhook URLs are credentials: userinfo (`user:pass@`) obviously, but also the path of most incoming-webhook
// services (Slack's `/services/T…/B…/<token>`, Discord's `/api/webhooks/<id>/<token>`) and query tokens. The full
// URL lives only in a Secret; everything shown, logged or put in an error uses the redacted form.

/** Leading path segments kept in the redacted form; never the last two, where the tokens usually are. */
const MAX_KEPT_SEGMENTS = 2;
const MASK = '***';

/**
 * `scheme://host[:port]/<kept>/***`: userinfo, query and fragment masked, and only the leading path segments
 * that cannot be the token (at most two, never the last two): `https://hooks.slack.com/services/T000/***`.
 * Idempotent, so a stored redacted form redacts to itself; an unparsable input gives a fixed placeholder.
 */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return MASK;
  }
  const segments = url.pathname.split('/').filter(Boolean);
  const alreadyMasked = segments.at(-1) === MASK;
  const candidates = alreadyMasked ? segments.slice(0, -1) : segments.slice(0, Math.max(0, segments.length - 2));
  const kept = candidates.slice(0, MAX_KEPT_SEGMENTS);
  const userinfo = url.username || url.password ? `${MASK}@` : '';
  const query = url.search || url.hash ? `?${MASK}` : '';
  const path = segments.length > 0 ? `/${[...kept, MASK].join('/')}` : '/';
  return `${url.protocol}//${userinfo}${url.host}${path}${query}`;
}

/** Why a string is not a deliverable webhook URL, or undefined when it is one. */
export function urlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL';
  return undefined;
}

/**
 * The URL fetch can take, and the Authorization header for its userinfo: fetch refuses URLs with credentials
 * (its TypeError would quote the whole URL), and HTTP Basic is what `user:pass@` means for http(s).
 */
export function requestTarget(raw: string): { url: string; authorization?: string } {
  const url = new URL(raw);
  if (!url.username && !url.password) return { url: url.href };
  const user = decodeURIComponent(url.username);
  const pass = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  return { url: url.href, authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` };
}
