// The order Kubernetes gives API versions (discovery's preferred version, a CRD's "newer" versions).
const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/**
 * apimachinery's version.CompareKubeAwareVersionStrings as a sort order: GA before beta before alpha, higher numbers
 * first within each (v2, v1, v11beta2, v1beta1, v1alpha1), then anything else alphabetically. Negative: `a` first.
 */
export function compareKubeAwareVersions(a: string, b: string): number {
  const rank = (v: string) => {
    const m = KUBE_VERSION.exec(v);
    if (!m) return undefined;
    return [Number(m[1]), m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1, Number(m[3] ?? 0)];
  };
  const ra = rank(a);
  const rb = rank(b);
  if (!ra || !rb) return ra ? -1 : rb ? 1 : a.localeCompare(b);
  if (ra[1] !== rb[1]) return rb[1]! - ra[1]!; // GA before beta before alpha, whatever the major
  if (ra[0] !== rb[0]) return rb[0]! - ra[0]!;
  return rb[2]! - ra[2]!;
}

/** Highest priority first, as discovery lists a group's versions (the first one is the preferred version). */
export function byKubeAwareVersion<T>(items: T[], name: (t: T) => string): T[] {
  return [...items].sort((x, y) => compareKubeAwareVersions(name(x), name(y)));
}
