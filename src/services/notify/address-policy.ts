// Where a webhook may post (server-side request forgery): Beekeeper runs next to the hubs' API servers, the cloud's
// metadata endpoint and Redis, so a URL that names (or resolves to) one of them must not turn Beekeeper into a
// proxy. Checked at registration and again at delivery, on the addresses the connection is then made to
// (pinnedLookup), so DNS rebinding cannot slip a private address in after the first check.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export type RefusedRange =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'shared (CGNAT)'
  | 'cloud metadata'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

export interface AddressPolicyConfig {
  /** Loopback, private, link-local and CGNAT become allowed (metadata, unspecified, multicast never do). */
  allowPrivate: boolean;
  /** Ranges allowed whatever they are (an explicit choice, so even a metadata address). */
  allowCidrs: readonly string[];
}

/** Names of metadata services that answer without resolving to a range above everywhere. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data']);
const METADATA_IPS = ['169.254.169.254', '100.100.100.200', 'fd00:ec2::254'];
/** How long a registration waits for DNS before accepting the name (delivery checks it anyway). */
const REGISTRATION_DNS_MS = 3000;

const RANGES: Array<[RefusedRange, string, number]> = [
  ['unspecified', '0.0.0.0', 8], // "this network": Linux connects 0.0.0.0 to the local host
  ['loopback', '127.0.0.0', 8],
  ['private', '10.0.0.0', 8],
  ['private', '172.16.0.0', 12],
  ['private', '192.168.0.0', 16],
  ['link-local', '169.254.0.0', 16],
  ['shared (CGNAT)', '100.64.0.0', 10],
  ['reserved', '192.0.0.0', 24], // IETF protocol assignments
  ['reserved', '198.18.0.0', 15], // benchmarking
  ['multicast', '224.0.0.0', 4],
  ['reserved', '240.0.0.0', 4], // and 255.255.255.255, broadcast
  ['unspecified', '::', 128],
  ['loopback', '::1', 128],
  ['private', 'fc00::', 7],
  ['link-local', 'fe80::', 10],
  ['multicast', 'ff00::', 8],
  ['reserved', '::', 96], // IPv4-compatible (deprecated)
  ['reserved', '64:ff9b::', 96], // NAT64: would reach an IPv4 address through the translator
  ['reserved', '2002::', 16], // 6to4: likewise
  ['reserved', '100::', 64], // discard
];

const familyOf = (ip: string) => (isIP(ip) === 6 ? 'ipv6' : 'ipv4');

function blockList(entries: Array<[string, number]>): BlockList {
  const list = new BlockList();
  for (const [net, bits] of entries) list.addSubnet(net, bits, familyOf(net));
  return list;
}

const METADATA = blockList(METADATA_IPS.map((ip) => [ip, isIP(ip) === 6 ? 128 : 32]));
const BY_RANGE = RANGES.map(([range, net, bits]) => ({ range, list: blockList([[net, bits]]) }));
const PRIVATE_LIKE = new Set<RefusedRange>(['loopback', 'private', 'link-local', 'shared (CGNAT)']);

/** `[::ffff:7f00:1]` → `127.0.0.1`: brackets and zone ids dropped, IPv4-mapped addresses as IPv4. */
export function normalizeIp(raw: string): string {
  const ip = raw.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (!mapped) return ip.toLowerCase();
  if (mapped[1]) return mapped[1];
  const hi = parseInt(mapped[2]!, 16);
  const lo = parseInt(mapped[3]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** The range an address falls in that a webhook may not reach by default, or undefined for a public address. */
export function refusedRange(rawIp: string): RefusedRange | undefined {
  const ip = normalizeIp(rawIp);
  const family = familyOf(ip);
  if (METADATA.check(ip, family)) return 'cloud metadata';
  return BY_RANGE.find((r) => r.list.check(ip, family))?.range;
}

export interface AddressPolicy {
  /** Why this address may not be posted to, or undefined when it may. */
  check(ip: string): RefusedRange | undefined;
  /**
   * The same for a URL's host: an address literal, a metadata name, and with `resolve` what the name resolves to
   * now (registration; delivery checks the addresses it connects to in pinnedLookup instead).
   */
  checkHost(hostname: string, opts: { resolve: boolean }): Promise<RefusedRange | undefined>;
}

export function createAddressPolicy(config: AddressPolicyConfig): AddressPolicy {
  const allowed = blockList(
    config.allowCidrs.map((cidr) => {
      const [net = '', bits = ''] = cidr.split('/');
      return [normalizeIp(net), Number(bits)];
    }),
  );
  const check = (raw: string): RefusedRange | undefined => {
    const ip = normalizeIp(raw);
    const range = refusedRange(ip);
    if (!range || allowed.check(ip, familyOf(ip))) return undefined;
    return config.allowPrivate && PRIVATE_LIKE.has(range) ? undefined : range;
  };
  return {
    check,
    async checkHost(hostname, opts) {
      const host = hostname
        .replace(/^\[|\]$/g, '')
        .replace(/\.$/, '')
        .toLowerCase();
      if (isIP(host)) return check(host);
      if (METADATA_NAMES.has(host)) return 'cloud metadata';
      if (!opts.resolve) return undefined;
      // A name that does not resolve now (or not within a few seconds) is accepted: delivery resolves it again
      // and refuses it then.
      let timer: NodeJS.Timeout | undefined;
      const addresses = await Promise.race([
        dnsLookupAsync(host, { all: true, verbatim: true }).catch(() => []),
        new Promise<LookupAddress[]>((resolve) => (timer = setTimeout(() => resolve([]), REGISTRATION_DNS_MS))),
      ]).finally(() => clearTimeout(timer));
      for (const { address } of addresses) {
        const range = check(address);
        if (range) return range;
      }
      return undefined;
    },
  };
}

/** The error a refused address fails the connection with (its code is what the log shows). */
export class AddressRefused extends Error {
  readonly code = 'EADDRREFUSEDBYPOLICY';
  constructor(
    readonly range: RefusedRange,
    readonly address: string,
  ) {
    super(`address in a refused range (${range})`);
    this.name = 'AddressRefused';
  }
}

/**
 * A `lookup` for net/tls.connect (undici's `connect.lookup`): resolves the name, refuses it when any address is in
 * a refused range, and hands the connection exactly the addresses it checked. `seen` gets them, for the log.
 */
export function pinnedLookup(policy: AddressPolicy, seen?: (addresses: string[]) => void): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(
      hostname,
      { all: true, verbatim: true, family: options.family ?? 0 },
      (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, '', 0);
        seen?.(addresses.map((a) => a.address));
        for (const a of addresses) {
          const range = policy.check(a.address);
          if (range) return callback(new AddressRefused(range, a.address), '', 0);
        }
        if (addresses.length === 0)
          return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        return callback(null, addresses[0]!.address, addresses[0]!.family);
      },
    );
  };
}
