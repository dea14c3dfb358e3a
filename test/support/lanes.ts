// A setup file (vitest.config.ts, with BEEKEEPER_TEST_LANES=1): two workers, as two lanes of one file at a time: the
// drills (test/drills), which mostly wait (a whole-minute schedule edge, a 60 s Redis outage, five processes
// starting) on their own redis-server and processes, and every other file on the shared Redis. Vitest hands any
// file to a free worker, so a file first takes its lane's lock (a directory made atomically, named for this run)
// and gives it back when it ends; test/support/lane-sequencer.ts orders the files so that a free worker mostly finds
// a file of the other lane and waits little. Taken in a beforeAll rather than when this file loads: a file whose
// tests are all skipped runs no hooks, and must neither take nor keep a lock.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { laneOf } from './lane-of.js';

// The workers are children of the run's main process: its pid names the run (other runs on the machine have theirs).
const lockOf = (lane: string) => join(tmpdir(), `beekeeper-test-lane-${process.ppid}-${lane}`);

/** The holder died (a worker that crashed mid-file): its lock is void. */
function abandoned(lock: string): boolean {
  try {
    process.kill(Number(readFileSync(join(lock, 'pid'), 'utf8')), 0);
    return false;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // No pid file yet (the holder is between mkdir and write): not abandoned.
    return code === 'ESRCH';
  }
}

let held: string | undefined;

// The first argument is vitest's fixtures (none here); the second is the file this hook runs for.
// eslint-disable-next-line no-empty-pattern
beforeAll(async ({}, file) => {
  const lock = lockOf(laneOf(relative(process.cwd(), (file as { filepath: string }).filepath)));
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      held = lock;
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (abandoned(lock)) rmSync(lock, { recursive: true, force: true });
    else await new Promise((r) => setTimeout(r, 100));
  }
  // As long as the lane's current file may take: the slowest files take a few minutes on a loaded machine.
}, 30 * 60_000);

afterAll(() => {
  if (held) rmSync(held, { recursive: true, force: true });
  held = undefined;
});
