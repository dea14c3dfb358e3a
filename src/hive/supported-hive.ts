// Which Hive this Beekeeper is written and tested against (docs/upgrades.md#supported-hive-versions). Hive tags no
// releases on GitHub (its OperatorHub bundles are versioned per commit), so the reference is the commit whose API
// and controller behaviour REFERENCE.md describes and whose CRDs the contract suite and the simulator use.

export const SUPPORTED_HIVE = {
  /** The Hive API group and version Beekeeper reads and writes. */
  apiGroupVersion: 'hive.openshift.io/v1',
  /** openshift/hive commit that REFERENCE.md and the contract suite's CRDs come from. */
  testedCommit: 'c02e51732cbcd84a43785dc49d70e718d0999cba',
  testedCommitDate: '2026-08-21',
  /**
   * What a hub's Hive must serve. An older Hive works when its CRDs have the fields docs/upgrades.md lists; /v1/hubs
   * reports a hub whose hive.openshift.io/v1 API lacks one of REQUIRED_HIVE_RESOURCES (src/kube/hub-status.ts).
   */
  requires:
    'hive.openshift.io/v1 ClusterDeployment, ClusterPool, ClusterClaim, ClusterImageSet, ClusterRelocate; ' +
    'fields as of the tested commit (see docs/upgrades.md)',
} as const;

/** The hive.openshift.io/v1 resources Beekeeper reads or writes: a hub's discovery document must list each. */
export const REQUIRED_HIVE_RESOURCES = [
  'clusterdeployments',
  'clusterpools',
  'clusterclaims',
  'clusterimagesets',
  'clusterrelocates',
] as const;

/** What a hub's hive.openshift.io/v1 discovery lacks of REQUIRED_HIVE_RESOURCES, in that order. */
export function missingHiveResources(served: readonly string[]): string[] {
  return REQUIRED_HIVE_RESOURCES.filter((r) => !served.includes(r));
}
