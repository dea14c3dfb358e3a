// Go `time.ParseDuration` strings, the only duration syntax Hive accepts (`claimLifetime`, `hibernateAfter`,
// `spec.lifetime`): REFERENCE.md conventions. There is no `d` unit in Go, so none here either.

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const DURATION = /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/;
const PART = /([0-9]+(?:\.[0-9]+)?)(ns|us|µs|ms|s|m|h)/g;

/** Milliseconds of a Go duration string, or undefined when it is not one (the CRD pattern, exactly). */
export function parseDuration(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined;
  let ms = 0;
  for (const [, value, unit] of text.matchAll(PART)) ms += Number(value) * UNIT_MS[unit!]!;
  return ms;
}

/** A Go duration string Hive accepts, in whole seconds at most: `90m` -> `1h30m`, `45s`, `0s`. */
export function formatDuration(ms: number): string {
  let seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds === 0) return '0s';
  const h = Math.floor(seconds / 3600);
  seconds -= h * 3600;
  const m = Math.floor(seconds / 60);
  seconds -= m * 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${seconds ? `${seconds}s` : ''}`;
}

/** Plain words for people: `1h30m` -> `1h 30m`, under a minute -> `less than a minute`. */
export function humanDuration(ms: number): string {
  if (ms < 60_000) return 'less than a minute';
  const minutes = Math.round(ms / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h ? `${h}h` : '', m ? `${m}m` : ''].filter(Boolean).join(' ');
}
