// Go `time.ParseDuration` strings, the format of Hive's `hibernateAfter`, `delete-after` and lifetimes. Go has no
// `d` unit, so "2d" is invalid in Hive and must be invalid here (REFERENCE.md conventions).

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  'µs': 1e-3, // U+00B5 micro sign
  'μs': 1e-3, // U+03BC Greek mu, also accepted by Go
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Milliseconds in a Go duration string, or undefined when Go would reject it. A leading sign is accepted as Go does. */
export function parseGoDuration(text: string): number | undefined {
  let s = text;
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < s.length) {
    const at = PART.lastIndex;
    const m = PART.exec(s);
    if (!m || m.index !== at) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return sign * total;
}

/**
 * True when the string also passes the CRD pattern Hive's duration fields use
 * (`^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`): no sign, no bare "0".
 */
export function isCrdDuration(text: string): boolean {
  return /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/.test(text);
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
