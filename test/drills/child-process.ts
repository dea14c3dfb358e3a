// An OS process of a drill (redis-server, the simulator, a Beekeeper role): its output goes to a log file in the
// drill's directory, `ready` resolves at the line that says it serves, and every process still alive when the test
// process exits is killed, so a failed or interrupted drill leaves nothing running.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';

const alive = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of alive) child.kill('SIGKILL');
});

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface DrillProcess {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves when a line of its output passes `readyWhen`; rejects if it exits first. */
  readonly ready: Promise<void>;
  readonly exited: Promise<Exit>;
  running(): boolean;
  /** Send a signal and wait for the exit (SIGKILL: a crash; SIGTERM: a graceful stop). */
  kill(signal: NodeJS.Signals): Promise<Exit>;
  /** The last lines of its output, for failure messages. */
  tail(lines?: number): string;
}

export function startProcess(opts: {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  logFile: string;
  readyWhen: (line: string) => boolean;
  /** Run as this user and group (the test process must be root): an image's arbitrary UID, say. */
  uid?: number;
  gid?: number;
}): DrillProcess {
  const child = spawn(opts.command, opts.args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.uid === undefined ? {} : { uid: opts.uid }),
    ...(opts.gid === undefined ? {} : { gid: opts.gid }),
  });
  alive.add(child);
  const log = createWriteStream(opts.logFile, { flags: 'a' });
  const recent: string[] = [];
  let readyLine!: () => void;
  const lineSeen = new Promise<void>((resolve) => (readyLine = resolve));
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      alive.delete(child);
      log.end();
      resolve({ code, signal });
    });
  });
  const onOutput = (stream: NodeJS.ReadableStream) => {
    let partial = '';
    stream.on('data', (chunk: Buffer) => {
      log.write(chunk);
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        recent.push(line);
        if (recent.length > 200) recent.shift();
        if (opts.readyWhen(line)) readyLine();
      }
    });
  };
  onOutput(child.stdout);
  onOutput(child.stderr);
  const tail = (n = 30) => recent.slice(-n).join('\n');
  const ready = Promise.race([
    lineSeen,
    exited.then((e) => {
      throw new Error(`${opts.name} exited (${e.code ?? e.signal}) before it was ready:\n${tail()}`);
    }),
  ]);
  ready.catch(() => undefined);
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    name: opts.name,
    pid: child.pid!,
    logFile: opts.logFile,
    ready,
    exited,
    running,
    async kill(signal) {
      if (running()) child.kill(signal);
      return exited;
    },
    tail,
  };
}

/** Stop gracefully, and kill whatever has not exited after `graceMs`. */
export async function stopProcess(p: DrillProcess, graceMs = 15_000): Promise<void> {
  if (!p.running()) return;
  const timer = setTimeout(() => void p.kill('SIGKILL'), graceMs);
  await p.kill('SIGTERM');
  clearTimeout(timer);
}
