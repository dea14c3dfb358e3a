// The pino root logger. Pretty output only on a terminal (JSON lines everywhere else, for log pipelines), and
// secrets are redacted by key (log-redaction.ts) so that a careless `log.info({ req })` cannot leak a token or a
// kubeconfig: in what a line logs, in a child's bindings and in a logged error's fields.
import { createRequire } from 'node:module';
import { pino, type Logger, type LoggerOptions } from 'pino';
import type { LogLevel } from './config.js';
import { redactSecrets } from './log-redaction.js';
import { stdoutLines } from './stdout-lines.js';

export type { Logger } from 'pino';

export interface LoggerSettings {
  level: LogLevel;
  /** Defaults to whether stdout is a terminal; only ever pretty where pino-pretty is installed. */
  pretty?: boolean;
  /** Where JSON lines go; stdout when absent. Tests pass a stream to read what was logged. */
  destination?: NodeJS.WritableStream;
}

/**
 * pino's isoTime, formatted once per millisecond: under load many lines fall in the same one, and toISOString was a
 * few per cent of a single GET's CPU.
 */
export function isoTimeOncePerMs(now: () => number = Date.now): () => string {
  let ms = Number.NaN;
  let field = '';
  return () => {
    const t = now();
    if (t !== ms) {
      ms = t;
      field = `,"time":"${new Date(t).toISOString()}"`;
    }
    return field;
  };
}

export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level: settings.level,
    base: { service: 'beekeeper' },
    // The err serializer runs after formatters.log: its output (message and stack kept) is redacted there.
    formatters: { log: (obj) => redactSecrets(obj, 'err') },
    serializers: { err: (err: unknown) => redactSecrets({ ...pino.stdSerializers.err(err as Error) }) },
    timestamp: isoTimeOncePerMs(),
  };
  const pretty = settings.pretty ?? (settings.destination === undefined && process.stdout.isTTY === true);
  if (pretty && prettyInstalled())
    return redactingChildren(
      pino({
        ...options,
        transport: {
          target: 'pino-pretty',
          options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service' },
        },
      }),
    );
  if (settings.destination) return redactingChildren(pino(options, settings.destination));
  // onDropped runs only after a drain, long after root is made.
  const root: Logger = redactingChildren(
    pino(
      options,
      stdoutLines({
        onDropped: (dropped) =>
          root.warn({ dropped }, 'log lines dropped: standard output was not read while they were written'),
      }),
    ),
  );
  return root;
}

/**
 * A child's bindings are written into each of its lines as they were given: pino applies formatters.bindings to the
 * root's base only, so every child (they inherit `child` from the root) redacts its bindings as it is made.
 */
function redactingChildren(root: Logger): Logger {
  const child = root.child;
  root.child = function (this: Logger, bindings, opts) {
    return child.call(this, redactSecrets(bindings), opts);
  } as Logger['child'];
  return root;
}

/**
 * pino-pretty is a devDependency: a production install (the image) has none, and pino would fail to start its
 * transport there, so a terminal (`docker run -t`, `oc debug`) would crash the process. Without it: JSON lines.
 * Resolved the way pino resolves a transport target, from this file.
 */
function prettyInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}
