// Verifying a moved cluster on the destination (REFERENCE.md §6: the copy present without Hive's `incoming` mark,
// its Secrets copied, its power state as before), then carrying Beekeeper's state there (carry-state.ts) and
// marking it moved. A run after a crash verifies again: every check reads the hubs as they are.
import { ANNOTATIONS } from '../../hive/constants.js';
import { NotFound } from '../../hive/errors.js';
import { readRelocationOrigin, type RelocationOrigin } from '../../hive/relocation-marks.js';
import type { RelocationCluster } from '../../hive/resources/relocation.js';
import { requestedState } from '../../hive/schedule/index.js';
import type { ClusterDeployment } from '../../hive/types.js';
import { clusterExpiry } from '../expiry/targets.js';
import { retargetOverrides, settleOnDestination } from './carry-state.js';
import { cachedCd, destRef, now, waitFor, type MoveContext } from './move-context.js';

type Name = Pick<RelocationCluster, 'namespace' | 'name'>;

/** The Secrets a ClusterDeployment refers to by name (the ones Hive must have copied with it). */
function referencedSecrets(cd: ClusterDeployment): string[] {
  const names = [
    cd.spec.pullSecretRef?.name,
    cd.spec.clusterMetadata?.adminKubeconfigSecretRef?.name,
    cd.spec.clusterMetadata?.adminPasswordSecretRef?.name,
    cd.spec.provisioning?.installConfigSecretRef?.name,
    ...Object.values(cd.spec.platform ?? {}).map(
      (p) => (p as { credentialsSecretRef?: { name?: string } })?.credentialsSecretRef?.name,
    ),
  ];
  return [...new Set(names.filter((n): n is string => Boolean(n)))];
}

/** Verifies the copy on the destination, carries Beekeeper's state and marks the cluster moved (or failed). */
export async function verifyMove(m: MoveContext, c: Name): Promise<void> {
  const dst = destRef(m, c);
  await m.status.cluster(c, { state: 'verifying', hub: m.to });
  let missing = 'the ClusterDeployment on the destination';
  /** Not there yet: says what the wait is for (the message if it times out). */
  const waiting = (what: string) => {
    missing = what;
    return undefined;
  };
  const copied = new Set<string>(); // Secrets seen on the destination are not read again
  const verified = await waitFor(m, async () => {
    const d = cachedCd(m, dst);
    if (!d) return waiting('the ClusterDeployment on the destination');
    if (d.metadata.annotations?.[ANNOTATIONS.relocate])
      return waiting(`Hive to clear ${ANNOTATIONS.relocate} on the destination`);
    const origin = readRelocationOrigin(d.metadata.annotations);
    const power = origin?.powerState ?? requestedState(d);
    if (requestedState(d) !== power || d.status?.powerState !== power)
      return waiting(`power state ${power} on the destination (now ${d.status?.powerState ?? 'not reported'})`);
    for (const name of referencedSecrets(d)) {
      if (copied.has(name)) continue;
      if (!(await m.store.get('Secret', { hub: m.to, namespace: c.namespace, name })))
        return waiting(`Secret ${c.namespace}/${name} on the destination`);
      copied.add(name);
    }
    return { cd: d, origin };
  });
  if (!verified) {
    const message = `moved, but not verified within ${Math.round(m.timeoutMs / 1000)} s: waiting for ${missing}`;
    await m.status.cluster(c, {
      state: 'failed',
      hub: m.to,
      reason: 'VerificationTimeout',
      message,
      finishedAt: now(m),
    });
    return;
  }
  const overrides = await retargetOverrides(m.store, m.state, { from: m.from, to: m.to, ...c });
  const settled = await settleWithRetry(m, c, verified.origin);
  const expiry = clusterExpiry(m.to, settled);
  const before = verified.origin?.expiresAt ? Date.parse(verified.origin.expiresAt) : undefined;
  // No origin: an earlier run settled it already.
  const kept = before === undefined || (expiry !== undefined && Math.abs(expiry.expiresAtMs - before) < 1000);
  await m.status.cluster(c, {
    state: 'moved',
    hub: m.to,
    finishedAt: now(m),
    ...(kept ? { message: undefined } : { message: 'moved; the expiry differs from the one on the source' }),
  });
  await m.store.recordEvent('ClusterDeployment', dst, {
    type: 'Normal',
    reason: 'Relocated',
    action: 'Relocate',
    message:
      `Relocation ${m.id} moved this cluster from hub ${m.from}` +
      (before !== undefined ? `; expiry kept at ${new Date(before).toISOString()}` : '') +
      (overrides.length ? `; overrides ${overrides.join(', ')}` : ''),
    key: `relocation/${m.id}/moved`,
  });
  m.log.info({ relocation: m.id, ...c, to: m.to }, 'cluster relocated');
}

async function settleWithRetry(
  m: MoveContext,
  c: Name,
  origin: RelocationOrigin | undefined,
): Promise<ClusterDeployment> {
  const dst = destRef(m, c);
  for (let attempt = 1; ; attempt++) {
    const cd = await m.store.get<ClusterDeployment>('ClusterDeployment', dst);
    if (!cd) throw new NotFound(`ClusterDeployment ${c.namespace}/${c.name} left hub ${m.to}`);
    try {
      return await settleOnDestination(m.store, dst, cd, origin);
    } catch (err) {
      if (attempt >= 5) throw err;
    }
  }
}
