import { R, type ReconcileResult } from '../client/index.js';
import { type HiveContext, A, L, ann, isDeleting, splitKey } from './context.js';
import { isTruthy } from './go-values.js';
import { writeObject } from './writes.js';

/**
 * pkg/controller/clusterversion: for an installed cluster whose API answers, the spoke's ClusterVersion
 * `status.desired.version` becomes the CD's `hive.openshift.io/version` label and, parsed as blang/semver's
 * ParseTolerant does, the version-major, -major-minor and -major-minor-patch labels (removed when it does not
 * parse); written with an update of the object, not of its status. A simulated spoke runs the version it was
 * installed with (`status.installVersion`). An unreachable (e.g. hibernating) cluster is left as it is.
 */
export async function reconcileClusterVersion(ctx: HiveContext, key: string): Promise<ReconcileResult | void> {
  const [ns, name] = splitKey(key);
  const cd = ctx.informers.clusterDeployments.get(ns, name);
  if (!cd || isDeleting(cd) || !cd.spec?.installed || isTruthy(ann(cd, A.reconcilePause))) return;
  const unreachable = (cd.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Unreachable');
  if (!unreachable || unreachable.status !== 'False') return;
  const version: string | undefined = cd.status?.installVersion;
  if (!version) return;
  const labels: Record<string, string> = { ...(cd.metadata.labels ?? {}), [L.version]: version };
  const parsed = parseTolerant(version);
  if (parsed) {
    labels[L.versionMajor] = `${parsed.major}`;
    labels[L.versionMajorMinor] = `${parsed.major}.${parsed.minor}`;
    labels[L.versionMajorMinorPatch] = `${parsed.major}.${parsed.minor}.${parsed.patch}`;
  } else {
    delete labels[L.versionMajor];
    delete labels[L.versionMajorMinor];
    delete labels[L.versionMajorMinorPatch];
  }
  await writeObject(ctx, R.clusterDeployment, cd, { ...cd, metadata: { ...cd.metadata, labels } });
}

/** blang/semver ParseTolerant: trims spaces and a leading `v`, and pads a missing minor or patch with 0. */
function parseTolerant(v: string): { major: number; minor: number; patch: number } | undefined {
  const m = /^v?(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?(?:\.(0|[1-9]\d*))?(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec(
    v.trim(),
  );
  if (!m) return undefined;
  return { major: Number(m[1]), minor: Number(m[2] ?? 0), patch: Number(m[3] ?? 0) };
}
