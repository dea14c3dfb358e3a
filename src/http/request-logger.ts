// request.log without a pino child per request. Fastify makes one for every request (binding its id), and a child
// (its bindings redacted and serialised once) costs more than the rest of a cached GET's logging; yet request.log is
// written only on rare paths (a failed sign-in, Fastify's own warnings). The child is made when a line is written
// at an enabled level, so the line still carries reqId.
import type { FastifyBaseLogger } from 'fastify';

type Bindings = Record<string, unknown>;

/** A pino logger (logger.ts) has isLevelEnabled; any other logger is asked to write everything. */
const enabled = (l: FastifyBaseLogger, level: string) =>
  (l as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.(level) ?? true;

class LazyRequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly opts: object,
  ) {}

  private real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.opts));
  }

  private write(level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]): void {
    if (!this.made && !enabled(this.parent, level)) return;
    const log: (...a: unknown[]) => void = this.real()[level];
    log.apply(this.made, args);
  }

  get level(): string {
    return (this.made ?? this.parent).level;
  }
  set level(level: string) {
    this.real().level = level;
  }
  isLevelEnabled(level: string): boolean {
    return enabled(this.made ?? this.parent, level);
  }
  child(bindings: Bindings, opts?: object): FastifyBaseLogger {
    return this.real().child(bindings, opts);
  }
  silent(): void {}
  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
}

/** Fastify's childLoggerFactory (server.ts). */
export function lazyRequestLogger(parent: FastifyBaseLogger, bindings: Bindings, opts: object): FastifyBaseLogger {
  return new LazyRequestLogger(parent, bindings, opts);
}
