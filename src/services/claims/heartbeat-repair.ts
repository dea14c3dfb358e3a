// The resync's repairer for heartbeats: a claim whose holder stopped heartbeating and that is still not released
// gets its release job again when Redis lost it (the reaper reports each deadline once, when its timer fires), or
// when the job failed for a reason that may pass. The deadline is the reaper's and the job's own rule
// (heartbeatDeadline), read live from the Lease.
import { HEARTBEAT_TIMEOUT_ANNOTATION } from '../../hive/pools/labels.js';
import type { ClusterClaim } from '../../hive/pools/types.js';
import type { Clock, HiveStore, JobQueue } from '../ports.js';
import { ensureJob, mayPass, repairEach, type Repairer } from '../resync/repair.js';
import { claimRefOf } from './claim-view.js';
import { heartbeatExpiredJob } from './heartbeat-expired.js';
import { heartbeatDeadline } from './heartbeat-lease.js';
import { heartbeatExpiredWhy } from './heartbeat-reaper.js';

export function heartbeatRepairer(deps: { store: HiveStore; queue: JobQueue; clock: Clock }): Repairer {
  return {
    name: 'heartbeat',
    repair: (run) =>
      repairEach(
        run,
        deps.store
          .cachedList<ClusterClaim>('ClusterClaim')
          .filter(
            ({ object }) =>
              object.metadata.annotations?.[HEARTBEAT_TIMEOUT_ANNOTATION] && !object.metadata.deletionTimestamp,
          ),
        async ({ hub, object }) => {
          const ref = claimRefOf(hub, object);
          const deadline = await heartbeatDeadline(deps.store, ref, object);
          if (deadline === undefined || run.nowMs < deadline) return undefined;
          const job = heartbeatExpiredJob(ref, deadline, heartbeatExpiredWhy(object));
          const did = await ensureJob(deps.queue, job, { retryFailed: mayPass });
          if (!did) return undefined;
          const why =
            did === 'added'
              ? 'its release job was gone (Redis lost it, or it was never enqueued)'
              : 'its release job had failed';
          return {
            kind: 'ClusterClaim',
            ref,
            message: `heartbeat deadline ${new Date(deadline).toISOString()} passed and the claim is still held; ${why}: released as ${job.jobId}`,
          };
        },
      ),
  };
}
