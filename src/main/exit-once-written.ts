// How a role ends itself after it has logged why: process.exit() once standard output and standard error are out.
//
// The logger writes a pipe at once when it has room and queues the rest (src/stdout-lines.ts), and process.exit()
// drops that queue: a role that logged a burst while its reader was slow lost its last lines, "stopped" or the
// fatal error that says why it could not start (a test with a paused reader: 168 of 2,001 lines arrived). An
// empty write's callback runs once everything written before it is out. A reader that does not read at all gets
// `waitMs`, then the process ends anyway: exiting matters more than the lines.

const DEFAULT_WAIT_MS = 2_000;

function written(out: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (out.writableLength === 0) return resolve();
    out.write('', () => resolve());
  });
}

export async function exitOnceWritten(code: number, waitMs = DEFAULT_WAIT_MS): Promise<never> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
  await Promise.race([Promise.all([written(process.stdout), written(process.stderr)]), late]);
  clearTimeout(timer);
  process.exit(code);
}
