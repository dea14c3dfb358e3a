// Go `time.ParseDuration` strings, the format of Hive's `hibernateAfter`, `delete-after` and lifetimes. Go has no
// `d` unit, so "2d" is invalid in Hive and must be invalid here (REFERENCE.md conventions).

const UNIT_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu, also accepted by Go
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** Go's Duration is an int64 of nanoseconds: ParseDuration refuses more than 2562047h47m16.854775807s. */
const MAX_NS = (1n << 63n) - 1n;

/** The largest duration Go (and so Hive) accepts, for error messages. */
export const GO_MAX_DURATION = '2562047h47m16.854775807s';

const PART = /(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/y;

/**
 * Nanoseconds in a Go duration string, or undefined when Go would reject it, overflow included (Go answers
 * `time: invalid duration "<s>"` for anything past the int64 range, and so does Hive for a delete-after it cannot
 * read). A leading sign is accepted as Go does; a fraction is truncated to whole nanoseconds as Go does.
 */
export function parseGoDurationNs(text: string): bigint | undefined {
  let s = text;
  let negative = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return undefined;
  let total = 0n;
  PART.lastIndex = 0;
  while (PART.lastIndex < s.length) {
    const at = PART.lastIndex;
    const m = PART.exec(s);
    if (!m || m.index !== at) return undefined;
    const [, whole = '', fraction = '', unitName] = m;
    if (whole === '' && fraction === '') return undefined; // "h", ".h": Go wants a digit
    const unit = UNIT_NS[unitName!]!;
    total += BigInt(whole || '0') * unit;
    if (fraction !== '') total += (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length);
    // -9223372036854775808ns is the one value that fits only when negative.
    if (total > MAX_NS + (negative ? 1n : 0n)) return undefined;
  }
  return negative ? -total : total;
}

/** Milliseconds in a Go duration string, or undefined when Go would reject it (see parseGoDurationNs). */
export function parseGoDuration(text: string): number | undefined {
  const ns = parseGoDurationNs(text);
  return ns === undefined ? undefined : Number(ns) / 1e6;
}

/** Go's own words for a duration it cannot parse, for error messages that match what Hive would log. */
export function invalidDurationMessage(text: string): string {
  return `time: invalid duration ${JSON.stringify(text)}`;
}

/**
 * True when the string passes the CRD pattern Hive's duration fields use
 * (`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`: no sign, no bare "0") and Go can parse it: the pattern alone lets
 * "99999999999999999h" through the API server, and Hive's controller then fails on it.
 */
export function isCrdDuration(text: string): boolean {
  return /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/.test(text) && parseGoDurationNs(text) !== undefined;
}

/** A whole-second Go duration, shortest form: 8h, 1h30m, 90m5s -> "1h30m5s", 0 -> "0s". Sub-second parts round up. */
export function formatGoDuration(ms: number): string {
  if (ms < 0) throw new RangeError('a duration for Hive cannot be negative');
  let seconds = Math.ceil(ms / 1000);
  if (seconds === 0) return '0s';
  const h = Math.floor(seconds / 3600);
  seconds -= h * 3600;
  const m = Math.floor(seconds / 60);
  const s = seconds - m * 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
}
