// Where the root logger's JSON lines go (logger.ts): standard output, each line handed to the kernel before the
// call returns whenever the reader keeps up, and never a stall of the process when it does not.
//
// Node writes a pipe on Linux at once from the main thread and queues only what the pipe cannot take (libuv
// writes the queue as the reader drains it); a file is written synchronously. So the lines logged just before a
// SIGKILL or an OOM kill (the ones that say why) are out of the process. The alternatives both failed here:
// pino's default stream writes every line from libuv's thread pool (lost on SIGKILL, a thread hand-off per line),
// and pino.destination({ sync: true }) sleeps the whole process for 100 ms each time a pipe is full, even when its
// reader drains it a moment later (issue 14: a burst of 20,000 request lines into `| cat` froze it for 101 ms).
//
// A reader that stops altogether would grow the queue without bound; past `maxBacklogBytes` lines are dropped,
// counted, and reported with one line once the queue has drained.

export interface StdoutLinesOptions {
  /** The stream written; process.stdout unless a test passes another. */
  out?: NodeJS.WritableStream & { writableLength: number };
  /** Queued bytes past which lines are dropped: at least the stream's high-water mark; 16 MiB by default. */
  maxBacklogBytes?: number;
  /** Called once the queue has drained after lines were dropped, with how many; logger.ts logs it. */
  onDropped?: (count: number) => void;
}

const DEFAULT_MAX_BACKLOG_BYTES = 16 * 1024 * 1024;

/** A pino destination (anything with write(line)). */
export function stdoutLines(options: StdoutLinesOptions = {}): { write(line: string): void } {
  const out = options.out ?? process.stdout;
  const max = options.maxBacklogBytes ?? DEFAULT_MAX_BACKLOG_BYTES;
  let dropped = 0;
  // Listened for only while lines are being dropped: every logger a process makes (tests make dozens) shares stdout.
  const report = () => {
    const count = dropped;
    dropped = 0;
    options.onDropped?.(count);
  };
  return {
    write(line: string) {
      if (out.writableLength > max) {
        // A queue past the stream's high-water mark has had a write answer false: 'drain' comes once it is empty.
        if (dropped++ === 0) out.once('drain', report);
        return;
      }
      out.write(line);
    },
  };
}
