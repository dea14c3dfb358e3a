// The relocation job type. relocation-service.ts enqueues it when POST /v1/relocations accepts a relocation (and the
// resync enqueues it again from the Operation after a Redis loss); relocation-run.ts runs it. The payload is only
// the Relocation's name: everything else, including how far it got, is in the Relocation resource.
import { Type as T } from 'typebox';
import { defineJob } from '../job-definition.js';

export const RELOCATION_RUN_JOB = defineJob({
  type: 'relocation.run',
  payload: T.Object({ id: T.String({ minLength: 1 }) }),
  // Each step is idempotent (it reads where the Relocation got and what Hive reports), so a retry resumes.
  attempts: 10,
  backoffMs: 5000,
  class: 'interactive',
});
