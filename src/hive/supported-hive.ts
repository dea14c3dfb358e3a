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
   * What a hub's Hive must serve. Older Hive builds work when their CRDs have these fields; the hub check
   * (src/kube/hive-api-check.ts) reads the CRDs at connect and reports a missing one on /v1/hubs.
   */
  requires:
    'hive.openshift.io/v1 ClusterDeployment, ClusterPool, ClusterClaim, ClusterImageSet, ClusterRelocate; ' +
    'fields as of the tested commit (see docs/upgrades.md)',
} as const;
