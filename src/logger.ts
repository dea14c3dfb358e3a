// The pino root logger. Pretty output only on a terminal (JSON lines everywhere else, for log pipelines), and
// secrets are redacted by path so that a careless `log.info({ req })` cannot leak a token or a kubeconfig.
import { createRequire } from 'node:module';
import { pino, type Logger, type LoggerOptions } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger } from 'pino';

const SECRET_KEYS = ['authorization', 'kubeconfig', 'kubeconfigData', 'password', 'token', 'pullSecret', 'stringData'];

/** Secret keys at the top level and up to three levels down, plus Secret `data` maps. */
export const REDACT_PATHS = [
  ...SECRET_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `*.*.*.${k}`]),
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.headers.authorization',
  'data.*',
  '*.data.*',
  'auth.tokens',
  '*.auth.tokens',
];

export interface LoggerSettings {
  level: LogLevel;
  /** Defaults to whether stdout is a terminal; only ever pretty where pino-pretty is installed. */
  pretty?: boolean;
  /** Where JSON lines go; stdout when absent. Tests pass a stream to read what was logged. */
  destination?: NodeJS.WritableStream;
}

export function createLogger(settings: LoggerSettings): Logger {
  const options: LoggerOptions = {
    level: settings.level,
    base: { service: 'beekeeper' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  const pretty = settings.pretty ?? (settings.destination === undefined && process.stdout.isTTY === true);
  if (pretty && prettyInstalled())
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,service' } },
    });
  return settings.destination ? pino(options, settings.destination as pino.DestinationStream) : pino(options);
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
