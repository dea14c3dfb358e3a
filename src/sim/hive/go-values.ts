// Go value formats Hive uses on the wire: strconv.ParseBool, time.ParseDuration, metav1.Duration, metav1.Time.

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** Go strconv.ParseBool, true case only: "truthy" in REFERENCE terms. */
export const isTruthy = (v: string | undefined): boolean => v !== undefined && TRUE.has(v);

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Go time.ParseDuration, in ms. Throws on anything Go would reject (there is no `d` unit). */
export function parseGoDuration(text: string): number {
  const s = text.trim();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let i = 0;
  let sign = 1;
  if (s[0] === '-' || s[0] === '+') {
    sign = s[0] === '-' ? -1 : 1;
    i = 1;
  }
  let total = 0;
  if (i >= s.length) throw new Error(`time: invalid duration "${text}"`);
  while (i < s.length) {
    re.lastIndex = i;
    const m = re.exec(s);
    if (!m) throw new Error(`time: invalid duration "${text}"`);
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    i = re.lastIndex;
  }
  return sign * total;
}

/** Go time.Duration.String() for whole-millisecond values: 8h0m0s, 30m0s, 1.5s, 0s. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  if (rest < 1000) return `${neg ? '-' : ''}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Number((rest / 1000).toFixed(3));
  let out = `${s}s`;
  if (h > 0 || m > 0) out = `${m}m${out}`;
  if (h > 0) out = `${h}h${out}`;
  return (neg ? '-' : '') + out;
}

/** metav1.Time: RFC 3339 with whole seconds. */
export const toTime = (ms: number): string =>
  new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export const fromTime = (t: string | undefined): number | undefined => (t ? Date.parse(t) : undefined);
