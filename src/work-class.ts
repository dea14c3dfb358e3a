// Whose work a call is part of, carried through async calls: someone waits on it (`interactive`, the default: API
// requests and the jobs they start) or it is the scheduler's own (`background`: warnings, policy sweeps, edge
// sweeps). The worker runs each job in its class; the hub's rate limiter serves interactive callers first, so a
// user's delete does not queue behind a sweep's 250 patches for the hub's few requests a second.
import { AsyncLocalStorage } from 'node:async_hooks';

export type WorkClass = 'interactive' | 'background';
export const WORK_CLASSES: readonly WorkClass[] = ['interactive', 'background'];

const current = new AsyncLocalStorage<WorkClass>();

export function runAs<T>(cls: WorkClass, fn: () => T): T {
  return current.run(cls, fn);
}

export function workClass(): WorkClass {
  return current.getStore() ?? 'interactive';
}
