import type { FastifyInstance } from 'fastify';
import type { Logger } from './logger.js';

export interface CloserOptions {
  app: FastifyInstance;
  logger: Logger;
  /** Closed after the server stopped taking requests, in order (pools, NATS, ...). */
  resources: Array<{ name: string; close: () => Promise<void> }>;
}

export interface ShutdownOptions {
  logger: Logger;
  /** Stops taking requests, finishes in-flight ones and closes what is open (e.g. `createCloser`). */
  close: () => Promise<void>;
  /** Longest time in-flight requests get before the process exits anyway. */
  graceMs: number;
  signals?: NodeJS.Signals[];
}

/**
 * Closes a service in order: stop accepting and finish in-flight requests
 * (`app.close`), then close each resource. Idempotent.
 */
export function createCloser(options: CloserOptions): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= (async () => {
      await options.app.close();
      for (const resource of options.resources) {
        try {
          await resource.close();
        } catch (error) {
          options.logger.warn({ err: error, resource: resource.name }, 'closing a resource failed');
        }
      }
    })();
    return closing;
  };
}

/**
 * On SIGTERM/SIGINT: close gracefully and exit 0; exit 1 if that takes longer
 * than the grace period. A second signal exits at once.
 */
export function installShutdownHandlers(options: ShutdownOptions): void {
  const { close } = options;
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      options.logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    signalled = true;
    options.logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      options.logger.error({ graceMs: options.graceMs }, 'shutdown grace period exceeded: exiting');
      process.exit(1);
    }, options.graceMs);
    timer.unref();
    close().then(
      () => {
        options.logger.info('shut down cleanly');
        process.exit(0);
      },
      (error: unknown) => {
        options.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  for (const signal of options.signals ?? (['SIGTERM', 'SIGINT'] as NodeJS.Signals[])) process.on(signal, onSignal);
}
