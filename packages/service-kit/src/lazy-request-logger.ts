import type { FastifyBaseLogger } from 'fastify';
import type { App } from './create-app.js';

/** What `setChildLoggerFactory` takes (Fastify does not export the type by name). */
type ChildLoggerFactory = Parameters<App['setChildLoggerFactory']>[0];

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** A logger that says whether a level is on (pino's `isLevelEnabled`). */
interface LevelAwareLogger extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
}

function isLevelAware(logger: FastifyBaseLogger): logger is LevelAwareLogger {
  return typeof (logger as Partial<LevelAwareLogger>).isLevelEnabled === 'function';
}

/**
 * A request's logger that makes the real child logger (the request id bound into
 * every line) only when the request logs a line its level lets through, and from then
 * on logs through it: what is logged, and how, does not change.
 *
 * Why: Fastify makes a child logger for every request, and pino serialises and
 * redacts the child's bindings when it is made (the kit's wildcard redact paths apply
 * to every binding). On a read answered from memory that costs more than the rest of
 * the route, for a logger that at the production level (`warn`, no access logs) logs
 * nothing for a successful read.
 */
class LazyRequestLogger implements FastifyBaseLogger {
  private made: LevelAwareLogger | undefined;

  constructor(
    private readonly parent: LevelAwareLogger,
    private readonly bindings: Record<string, unknown>,
  ) {}

  get level(): string {
    return (this.made ?? this.parent).level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

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

  silent(): void {}

  child(bindings: Record<string, unknown>, options?: Parameters<FastifyBaseLogger['child']>[1]): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  private write(level: Level, args: unknown[]): void {
    if (!(this.made ?? this.parent).isLevelEnabled(level)) return;
    const logger = this.logger();
    Reflect.apply(logger[level], logger, args);
  }

  private logger(): LevelAwareLogger {
    return (this.made ??= this.parent.child(this.bindings) as LevelAwareLogger);
  }
}

/**
 * Fastify's child logger factory (`setChildLoggerFactory`) for routes that should not
 * pay for a child logger they do not use (a hot read path answered from memory). A child with options of its own (a route's
 * `logLevel`, serializers) is made at once, as Fastify would.
 */
export const createLazyRequestLogger: ChildLoggerFactory = function (logger, bindings, options) {
  for (const _ in options) return logger.child(bindings, options);
  if (!isLevelAware(logger)) return logger.child(bindings, options);
  return new LazyRequestLogger(logger, bindings);
};
