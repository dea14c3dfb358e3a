/**
 * String formats checked by kube-apiserver 1.26 (kube-openapi's strfmt.Default registry). Formats it does not
 * know (int32, int64, ip, int-or-string, ...) are ignored, as there. Checks are deliberately lenient: a value real
 * Kubernetes accepts must never be rejected here.
 */
const checks: Record<string, (s: string) => boolean> = {
  'date-time': (s) => /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/.test(s),
  datetime: (s) => checks['date-time']!(s),
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s),
  byte: (s) => /^[A-Za-z0-9+/]*={0,2}$/.test(s) && s.length % 4 === 0,
  uuid: (s) => /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(s),
  ipv4: (s) => /^((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)$/.test(s),
  ipv6: (s) => s.includes(':') && /^[0-9A-Fa-f:.]+(%.+)?$/.test(s),
  cidr: (s) => /^[0-9A-Fa-f:.]+\/\d{1,3}$/.test(s),
  mac: (s) => /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/.test(s),
  uri: (s) => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s) || s.startsWith('/'),
  // strfmt.ParseDuration: Go's time.ParseDuration, else "<n> <unit>" groups with day/week and long unit names.
  duration: (s) =>
    /^[+-]?(0|((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+)$/.test(s) ||
    /^(\s*\d+\s*(ns|us|µs|ms|s|m|h|d|w|sec(ond)?s?|min(ute)?s?|hours?|days?|weeks?)\s*)+$/i.test(s),
};

/** False only when `format` is known and `value` does not satisfy it. */
export function satisfiesFormat(format: string, value: string): boolean {
  const check = checks[format];
  return check ? check(value) : true;
}
