// The handlers the worker runs for the cluster job types (cluster-jobs.ts).
import { handleJob, type JobRegistration } from '../job-definition.js';
import { CREATE_JOB, DELETE_JOB, HIBERNATE_JOB, RESUME_JOB } from './cluster-jobs.js';
import { runCreate } from './create-job.js';
import type { ClusterJobDeps } from './deps.js';
import { runDelete } from './delete-job.js';
import { runPower } from './power-job.js';

export function clusterJobs(d: ClusterJobDeps): JobRegistration[] {
  return [
    handleJob(CREATE_JOB, (p, ctx) => runCreate(d, p, ctx)),
    handleJob(HIBERNATE_JOB, (p, ctx) => runPower(d, { ...p, target: 'Hibernating' }, ctx)),
    handleJob(RESUME_JOB, (p, ctx) => runPower(d, { ...p, target: 'Running' }, ctx)),
    handleJob(DELETE_JOB, (p, ctx) => runDelete(d, p, ctx)),
  ];
}
