import { defineCrd, HIVE_GROUP, HIVE_VERSION } from './define-crd.js';
import { obj, str } from './schema-builders.js';

/** ClusterImageSet: cluster-scoped, `spec.releaseImage` required, empty status (REFERENCE §7). */
export function clusterImageSetCrd(): Record<string, unknown> {
  return defineCrd({
    group: HIVE_GROUP,
    version: HIVE_VERSION,
    kind: 'ClusterImageSet',
    plural: 'clusterimagesets',
    shortNames: ['imgset'],
    scope: 'Cluster',
    spec: obj({ releaseImage: str() }, ['releaseImage']),
    status: obj({}),
    printerColumns: [{ jsonPath: '.spec.releaseImage', name: 'Release', type: 'string' }],
  });
}
