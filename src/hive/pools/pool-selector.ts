// Matching a pool against what a claim asks for. Every mismatch is named, so "no pool matches" can say why.
import { normalizeArchitecture, type PoolAttributes } from './pool-attributes.js';

/** What a claim asks of a pool: any of the pool's attributes, plus the hub. */
export type PoolSelector = Partial<Omit<PoolAttributes, 'labels' | 'version'>> & {
  hub?: string;
  /** `4.14` matches every 4.14.z; `4.14.3` matches exactly. */
  version?: string;
  labels?: Record<string, string>;
};

export function versionMatches(wanted: string, actual: string | undefined): boolean {
  if (!actual) return false;
  const want = wanted.replace(/^v/, '').split('.');
  const have = actual.split(/[.-]/);
  return want.every((part, i) => part === have[i]);
}

/** The reasons this pool does not fit, in plain words; empty when it fits. */
export function selectorMismatches(hub: string, attrs: PoolAttributes, selector: PoolSelector): string[] {
  const out: string[] = [];
  const differs = (what: string, wanted: string | undefined, actual: string | undefined) => {
    if (wanted !== undefined && wanted.toLowerCase() !== actual?.toLowerCase())
      out.push(`${what} is ${actual ?? 'unknown'}, not ${wanted}`);
  };
  differs('hub', selector.hub, hub);
  differs('platform', selector.platform, attrs.platform);
  differs('region', selector.region, attrs.region);
  if (selector.version !== undefined && !versionMatches(selector.version, attrs.version)) {
    out.push(`OpenShift version is ${attrs.version ?? 'unknown'}, not ${selector.version}`);
  }
  if (selector.architecture !== undefined) {
    differs('architecture', normalizeArchitecture(selector.architecture), attrs.architecture);
  }
  differs('owner', selector.owner, attrs.owner);
  differs('team', selector.team, attrs.team);
  for (const [key, value] of Object.entries(selector.labels ?? {})) {
    if (attrs.labels[key] !== value) out.push(`label ${key} is ${attrs.labels[key] ?? 'unset'}, not ${value}`);
  }
  return out;
}

/** A short description of the selector for messages: `platform=aws, version=4.14`. */
export function describeSelector(selector: PoolSelector): string {
  const parts = Object.entries(selector)
    .filter(([key, value]) => key !== 'labels' && value !== undefined)
    .map(([key, value]) => `${key}=${String(value)}`);
  for (const [key, value] of Object.entries(selector.labels ?? {})) parts.push(`${key}=${value}`);
  return parts.length ? parts.join(', ') : 'any pool';
}
