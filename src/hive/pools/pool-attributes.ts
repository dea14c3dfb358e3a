// What a CI user can ask of a pool: platform, region, OpenShift version, architecture, owner, team, labels.
import { ARCHITECTURE_LABEL, OWNER_LABEL, TEAM_LABEL } from './labels.js';
import type { ClusterImageSet, ClusterPool } from './types.js';

export interface PoolAttributes {
  platform?: string;
  region?: string;
  /** Full `x.y.z` version of the pool's ClusterImageSet release image, when it can be read. */
  version?: string;
  architecture?: string;
  owner?: string;
  team?: string;
  labels: Record<string, string>;
}

const ARCH_ALIASES: Record<string, string> = { amd64: 'x86_64', 'x86-64': 'x86_64', arm64: 'aarch64' };

/** `amd64` and `x86_64` name the same thing; release images use the `uname -m` spelling. */
export function normalizeArchitecture(arch: string): string {
  const lower = arch.toLowerCase();
  return ARCH_ALIASES[lower] ?? lower;
}

/**
 * Version and architecture of a release image such as `quay.io/openshift-release-dev/ocp-release:4.14.3-x86_64`.
 * A digest-pinned image carries neither, so the ClusterImageSet name (`openshift-v4.14.3`) is the fallback.
 */
export function releaseInfo(imageSet: ClusterImageSet | undefined): { version?: string; architecture?: string } {
  if (!imageSet) return {};
  const tag = /:([^:/@]+)$/.exec(imageSet.spec.releaseImage)?.[1];
  const fromTag = tag
    ? /^v?(\d+\.\d+\.\d+(?:-[a-z]+\.\d+)?)(?:-(x86_64|aarch64|ppc64le|s390x|multi|arm64|amd64))?$/.exec(tag)
    : null;
  const version = fromTag?.[1] ?? /(\d+\.\d+\.\d+)/.exec(imageSet.metadata.name)?.[1];
  const arch = fromTag?.[2] ?? /(x86[_-]64|aarch64|arm64|amd64|ppc64le|s390x|multi)/.exec(imageSet.metadata.name)?.[1];
  return { version, architecture: arch ? normalizeArchitecture(arch) : undefined };
}

export function poolPlatform(pool: ClusterPool): { platform?: string; region?: string } {
  for (const [platform, spec] of Object.entries(pool.spec.platform ?? {})) {
    if (spec) return { platform, region: spec.region };
  }
  return {};
}

export function poolAttributes(pool: ClusterPool, imageSet: ClusterImageSet | undefined): PoolAttributes {
  const labels = pool.metadata.labels ?? {};
  const release = releaseInfo(imageSet);
  const archLabel = labels[ARCHITECTURE_LABEL];
  return {
    ...poolPlatform(pool),
    version: release.version,
    architecture: archLabel ? normalizeArchitecture(archLabel) : release.architecture,
    owner: labels[OWNER_LABEL],
    team: labels[TEAM_LABEL],
    labels,
  };
}
