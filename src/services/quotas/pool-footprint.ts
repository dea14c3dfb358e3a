// How many clusters a ClusterPool makes Hive hold: `size` unclaimed ones plus the clusters already claimed from it
// (Hive replaces each claimed cluster), never more than `maxSize` in all when it is set (REFERENCE.md §4). This is
// what a pool create or a size/maxSize change is charged to the team's `clusters` quota.

export interface PoolShape {
  size: number;
  maxSize?: number;
}

export function poolFootprint(pool: PoolShape, claimed: number): number {
  const wanted = pool.size + claimed;
  return pool.maxSize === undefined ? wanted : Math.min(pool.maxSize, wanted);
}
