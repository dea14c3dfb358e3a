// A test that needs something the repository does not hold (the upstream Hive CRDs, a tool on the PATH) is
// registered anyway and skipped with the reason, so the run lists it (skip-reporter.ts) instead of quietly running
// fewer tests. Suites and tests take it as their options: describe('...', needs(missing), () => ...).
import 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** Why the test is skipped; inherited by every test of a suite. */
    skipReason?: string;
  }
}

/** Test options that skip with `missing` as the reason, or run when nothing is missing. */
export function needs(missing: string | undefined): { skip: boolean; meta: { skipReason?: string } } {
  return missing === undefined ? { skip: false, meta: {} } : { skip: true, meta: { skipReason: missing } };
}
