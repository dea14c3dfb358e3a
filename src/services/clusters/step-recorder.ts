// Progress steps reported from synchronous informer callbacks, kept in order, each distinct step once in a row.
import type { JobContext } from '../ports.js';

export interface StepRecorder {
  record(step: string, message?: string): void;
  /** Wait until every recorded step has reached the job. */
  flush(): Promise<void>;
}

export function createStepRecorder(ctx: Pick<JobContext, 'step' | 'log'>): StepRecorder {
  let last: string | undefined;
  let chain: Promise<void> = Promise.resolve();
  return {
    record(step, message) {
      const key = `${step}\u0000${message ?? ''}`;
      if (key === last) return;
      last = key;
      chain = chain
        .then(() => ctx.step(step, message))
        .catch((err: unknown) => ctx.log.warn({ err: (err as Error).message, step }, 'could not record job step'));
    },
    flush: () => chain,
  };
}
