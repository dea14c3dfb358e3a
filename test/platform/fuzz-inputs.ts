// Hostile inputs, by where they go. Every value in the lists marked "invalid" breaks a rule the API states (a
// Kubernetes name, a schema's type, pattern or bound), so a request carrying one must be refused, whatever else it
// carries.

/**
 * Path segments no hub, namespace, name or id can be, as they go on the wire (already percent-encoded where
 * needed): traversal, encoded slashes, NUL, unicode, over-long, upper case, a leading dash, broken encodings.
 */
export const INVALID_SEGMENTS: readonly string[] = [
  '..',
  '.',
  '%2e%2e',
  '%2e%2e%2f',
  '%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
  '..%2f..%2f',
  'a%2Fb',
  'a%5Cb',
  '%00',
  'a%00b',
  '%0d%0aX-Injected%3A%201',
  '%20',
  'a%20b',
  encodeURIComponent('ümlaut'),
  encodeURIComponent('名前'),
  encodeURIComponent('😀'),
  encodeURIComponent('\u202eevil'),
  encodeURIComponent('\ufeffbom'),
  '%C0%AE%C0%AE',
  '%E0%A4%A',
  '%ZZ',
  '%',
  'x'.repeat(300),
  'y'.repeat(254),
  'UPPER',
  'MixedCase',
  '-leading-dash',
  'trailing-dash-',
  'under_score',
  '__proto__',
  'a..b',
  '%3Cscript%3E',
  '%7B%7B7*7%7D%7D',
  '%24(id)',
  '%3F',
  '%23frag',
  'a%3Bb',
  '*',
  '~root',
];

/**
 * Names a Kubernetes object could have but a JavaScript object already has as a key: a lookup keyed by name must
 * not find the prototype's member. Used where the target must not exist for the request to be refused (never on
 * a PUT, which would create it).
 */
export const PROTOTYPE_NAMES: readonly string[] = ['constructor', 'prototype', 'hasownproperty', 'tostring', 'valueof'];

/** Strings for free-form places (query filters, header values), none of which should crash anything. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '..',
  '../../etc/passwd',
  'a/b',
  'a\u0000b',
  '\u0000',
  'a\r\nX-Injected: 1',
  '\t',
  'ümlaut',
  '名前',
  '😀',
  '\ud800',
  '\u202e',
  'x'.repeat(300),
  'z'.repeat(5000),
  'UPPER',
  '-dash',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e400',
  '[]',
  '{}',
  '"',
  "'; DROP TABLE x;--",
  '${jndi:ldap://x}',
  '{{7*7}}',
  '%00',
  '%2e%2e%2f',
  'a=b,c!=d',
  '!',
  'in (a, b',
];

/** Header values that are no token and no key: control characters, CRLF injection, unicode, oversize. */
export const HOSTILE_HEADER_VALUES: readonly string[] = [
  '',
  ' ',
  'a\r\nX-Injected: 1',
  'a\rb',
  'a\nb',
  'a\u0000b',
  '\u0000',
  'ümlaut',
  '😀',
  'x'.repeat(300),
  'y'.repeat(8000),
  '\t',
  'a b',
  '"quoted"',
];

/** Authorization values that must not sign anyone in; `token` is the valid one. */
export function hostileAuthorizations(token: string): string[] {
  return [
    '',
    'Bearer',
    'Bearer ',
    `Bearer ${token}\r\nX-Injected: 1`,
    `Bearer ${token}\u0000`,
    `Bearer \u0000${token}`,
    `Bearer ${token.toUpperCase()}`,
    `Bearer ${token.slice(0, -1)}`,
    `Bearer ${token}x`,
    `Bearer ${token} ${token}`,
    `Bearer ${'a'.repeat(5000)}`,
    `Bearer ${token}ü`,
    `Basic ${Buffer.from(`fuzz:${token}`).toString('base64')}`,
    `Basic ${Buffer.from(':').toString('base64')}`,
    'Basic !!!',
    `Token ${token}`,
    token,
    'Bearer null',
    'Bearer undefined',
    'Bearer __proto__',
    'Bearer constructor',
    'Bearer 😀',
  ];
}

/** Content types a JSON body must not be taken under (the body sent as JSON text anyway, or as UTF-16). */
export const BAD_CONTENT_TYPES: readonly string[] = [
  'text/plain',
  'text/plain; charset=utf-8',
  'multipart/form-data; boundary=fuzz',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/jsonx',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/yaml',
  'application/octet-stream',
  '*/*',
  'json',
  ';',
  'application/',
  '\u0000',
];

/** JSON texts that are not JSON, or JSON that poisons prototypes. */
export const BAD_JSON: readonly string[] = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":undefined}',
  '{a:1}',
  '{"a":1} trailing',
  '{"a":1}{"b":2}',
  '\u0000',
  '[',
  ']',
  '{"a":"\\ud800"',
  '{"a":"\u0000',
  '\ufeff{}x',
  '{"__proto__":{"polluted":true}}',
  '{"a":{"__proto__":{"polluted":true}}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":[{"constructor":{"prototype":{"polluted":true}}}]}',
  'null x',
  '01',
  '{"a":01}',
  '{"a":1e99999}',
  '{"a":-}',
];

/** Bodies that are JSON but not an object. */
export const NON_OBJECT_BODIES: readonly string[] = [
  '[]',
  '[{}]',
  '"text"',
  '42',
  '-1',
  'true',
  'false',
  'null',
  '1e400',
];

/** Methods no route of the API answers on any path (HEAD and OPTIONS left out: Fastify answers HEAD for GET). */
export const ODD_METHODS: readonly string[] = ['TRACE', 'PROPFIND', 'MKCOL', 'LOCK', 'SEARCH', 'PURGE'];

/**
 * Fields that take any text (a person's name, a reason, a cloud's own identifiers): a hostile value there is
 * still a value. Only an absurd size must be refused (nothing of the sort belongs in a Kubernetes object).
 */
export const FREE_TEXT = new Set([
  'by',
  'reason',
  'holder',
  'description',
  'region',
  'instanceType',
  'sshKey',
  'accessKeyID',
  'secretAccessKey',
  'servicePrincipalJSON',
  'serviceAccountJSON',
  'projectID',
  'gcpProjectID',
  'baseDomainResourceGroupName',
  'azureBaseDomainResourceGroupName',
  'pullSecret',
  'owner',
  'architecture',
  'platform',
  'networkType',
  'annotations',
  'userTags',
  // RBAC subjects: a User or Group name is any text to Kubernetes (an e-mail, an LDAP DN).
  'subjects',
  // A webhook's signing secret: any text.
  'secret',
]);

/** Text no name, duration, time, zone, date, cron, URL, reference or label value can be. */
export const SEMANTIC_HOSTILE: readonly string[] = [
  '',
  ' ',
  '..',
  '../../etc/passwd',
  'a\u0000b',
  'a\r\nX-Injected: 1',
  '\t',
  'ümlaut',
  '名前',
  '😀',
  '\ud800',
  '\u202e',
  'x'.repeat(300),
  'z'.repeat(100_000),
  '-dash',
  '__proto__',
  '"',
  "'; DROP TABLE x;--",
  '${jndi:ldap://x}',
  '{{7*7}}',
  '%00',
  '!',
];

/** Fields naming a hub that must exist (a selector's `hubs` may name one not configured yet). */
export const HUB_FIELDS = new Set(['hub', 'from', 'to']);

/** Keys no label, annotation or tag map can have. */
export const HOSTILE_KEYS: readonly string[] = [
  '',
  ' ',
  'a b',
  'ü',
  '-x',
  'x'.repeat(300),
  'a/b/c',
  '/x',
  'x/',
  '\u0000',
  '😀',
];
