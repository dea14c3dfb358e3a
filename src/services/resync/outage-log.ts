// One log line per outage, not one per item. While Redis (or a hub) is unavailable every timer that fires fails the
// same way, and the resync does what they missed once it answers again; a line per claim and per retry said nothing
// more and buried the one that mattered (issue 9: 121 "cannot enqueue expiry job" lines in a 60 s outage). Other
// failures are still logged one by one: they are about the item.
import { Unavailable } from '../../hive/errors.js';
import type { ServiceLog } from '../ports.js';

export interface OutageLog {
  /** A failure: an Unavailable is logged once until `ok()`, anything else each time at `level`. */
  failed(err: unknown, fields: object, msg: string, level?: 'warn' | 'error'): void;
  /** Something worked again: the next Unavailable is a new outage. */
  ok(): void;
}

export function createOutageLog(log: ServiceLog, what: string): OutageLog {
  let down = false;
  let unlogged = 0;
  return {
    failed(err, fields, msg, level = 'warn') {
      if (!(err instanceof Unavailable)) return log[level]({ ...fields, err }, msg);
      if (down) return void unlogged++;
      down = true;
      log.warn(
        { ...fields, err: err.message },
        `${msg}; further ${what} failing for the same reason are not logged until one succeeds (the resync catches up)`,
      );
    },
    ok() {
      if (!down) return;
      log.info({ unlogged }, `${what} succeed again (${unlogged} more failed meanwhile)`);
      down = false;
      unlogged = 0;
    },
  };
}
