// A setup file (vitest.config.ts): each project is a lane that runs one file at a time, while the two lanes run side
// by side in two workers. Vitest runs two workers on any files, so a file first takes its lane's lock (a directory
// under the run's temp name, made atomically) and gives it back when it ends. Taken in a beforeAll rather than when
// this file loads: a file whose tests are all skipped runs no hooks, and must neither take nor keep the lock.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The lane (the project's name) whose files run one at a time. */
    lane: string;
  }
}

// The workers are the run's children: their parent's pid names the run (other runs on the machine have their own).
const lock = join(tmpdir(), `beekeeper-test-lane-${process.ppid}-${inject('lane')}`);

/** The holder died (a worker that crashed): its lock is void. */
function abandoned(): boolean {
  try {
    process.kill(Number(readFileSync(join(lock, 'pid'), 'utf8')), 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

beforeAll(async () => {
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (abandoned()) rmSync(lock, { recursive: true, force: true });
    else await new Promise((r) => setTimeout(r, 100));
  }
  // As long as the other file of this lane may take (a drill runs a few minutes at most).
}, 30 * 60_000);

afterAll(() => rmSync(lock, { recursive: true, force: true }));
