// The catalog is what each service declares beside its handlers; the retries, classes and priorities are the ones
// the queue has always used, and every payload is checked against its type's schema.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_JOB_TYPE,
  JOB_CATALOG,
  JOB_DEFINITIONS,
  definitionsByType,
  jobTypeSpec,
} from '../../src/jobs/catalog.js';
import { HIBERNATE_JOB } from '../../src/services/clusters/cluster-jobs.js';

describe('the job catalog', () => {
  it('keeps every type its retries, class and priority', () => {
    const interactive = { class: 'interactive' };
    expect(Object.fromEntries(Object.keys(JOB_CATALOG).map((t) => [t, jobTypeSpec(JOB_CATALOG, t)]))).toEqual({
      'cluster.hibernate': { attempts: 8, backoffMs: 2000, class: 'interactive', priority: 10 },
      'cluster.resume': { attempts: 8, backoffMs: 2000, class: 'interactive', priority: 10 },
      'cluster.delete': { attempts: 8, backoffMs: 2000, class: 'interactive', priority: 10 },
      'cluster.create': { attempts: 5, backoffMs: 3000, class: 'interactive', priority: 10 },
      'claim.release': { ...DEFAULT_JOB_TYPE, ...interactive },
      'pool.delete': { ...DEFAULT_JOB_TYPE, ...interactive },
      'schedule.run': { attempts: 3, backoffMs: 5000, class: 'interactive', priority: 10 },
      'schedule.sweep': { attempts: 3, backoffMs: 5000, class: 'background', priority: 1 },
      'schedule.apply': { attempts: 8, backoffMs: 2000, class: 'background', priority: 1 },
      'schedule.reconcile-cluster': { ...DEFAULT_JOB_TYPE, priority: 2 },
      'claim.heartbeat-expired': { ...DEFAULT_JOB_TYPE, priority: 2 },
      'expiry.enforce-policy': { ...DEFAULT_JOB_TYPE, priority: 5 },
      'expiry.warn': { attempts: 10, backoffMs: 3000, class: 'background', priority: 10 },
      'relocation.run': { attempts: 10, backoffMs: 5000, class: 'interactive', priority: 10 },
    });
    expect(DEFAULT_JOB_TYPE).toEqual({ attempts: 6, backoffMs: 2000, class: 'background', priority: 10 });
  });

  it('names each type once', () => {
    expect(definitionsByType(JOB_DEFINITIONS).size).toBe(JOB_DEFINITIONS.length);
    expect(() => definitionsByType([HIBERNATE_JOB, HIBERNATE_JOB])).toThrow(/cluster.hibernate is defined twice/);
  });

  it('says which fields of a payload do not fit its schema', () => {
    expect(HIBERNATE_JOB.check({ hub: 'h', namespace: 'n', name: 'c', target: 'Hibernating' })).toBeUndefined();
    expect(HIBERNATE_JOB.check({ hub: 'h', namespace: 'n', target: 'Asleep' })).toMatch(
      /^the cluster.hibernate payload does not fit its schema: .*name.*target|.*target.*name/,
    );
  });
});
