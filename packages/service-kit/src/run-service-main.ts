import { ConfigError } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { installShutdownHandlers } from './shutdown.js';
import type { InProcessHub } from './bus/in-process-bus.js';
import type { RunningService } from './start-service.js';
import { readTracingConfig } from './tracing/tracing-config.js';
import { startTracing, type Tracing } from './tracing/start-tracing.js';

/** What every service's config has that the process around it reads. */
export interface ProcessConfig {
  LOG_LEVEL: string;
  SHUTDOWN_GRACE_MS: number;
}

/** A service as a process runs it: how to read its config and how to start it. */
export interface ServiceDefinition<C extends ProcessConfig = ProcessConfig> {
  name: string;
  /** Reads the config from the environment; throws a ConfigError naming every problem. */
  loadConfig(env: Record<string, string | undefined>): C;
  /** Opens what the service needs, builds the app and listens (`server.ts`). */
  start(config: C, logger: Logger, options?: { hub?: InProcessHub }): Promise<RunningService>;
}

/**
 * A refusal to start whose message is the whole story for an operator (a wrong
 * KEY_ENCRYPTION_KEY, an unreadable bundle): printed as one line, without a stack.
 */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StartupError';
  }
}

export interface RunServicesOptions {
  /** The environment each service reads; default `process.env`. */
  envFor?: (service: ServiceDefinition) => Record<string, string | undefined>;
  /** Connects in-process buses of services started in this process. */
  hub?: InProcessHub;
}

/**
 * The process around one or more services (`main.ts`, and `npm start`, which runs all
 * three in one process): reads every config first and reports every problem of every
 * service at once, starts the services in order, logs where each listens and closes
 * them in reverse order on SIGTERM/SIGINT within the largest grace period. Any failure
 * to start closes what did start and exits 1.
 */
export async function runServiceMain(
  // Each service has its own config type; the list is heterogeneous, so the element type is erased here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  services: ServiceDefinition<any>[],
  options: RunServicesOptions = {},
): Promise<RunningService[]> {
  const configs: ProcessConfig[] = [];
  const problems: string[] = [];
  for (const service of services) {
    try {
      const env = options.envFor?.(service) ?? process.env;
      configs.push(service.loadConfig(env));
      readTracingConfig(env, service.name);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(`${service.name}: invalid configuration`, ...error.problems.map((problem) => `  ${problem}`));
    }
  }
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n`);
    process.exit(1);
  }

  const running: RunningService[] = [];
  // Before each service opens anything: its app, bus and database ask for its tracer when set up.
  const tracings: Tracing[] = services.map((service) =>
    startTracing({ service: service.name, env: options.envFor?.(service) ?? process.env }),
  );
  const closeAll = async () => {
    for (const service of [...running].reverse()) await service.close();
    // Last: the spans of the shutdown itself are flushed too.
    for (const tracing of tracings) await tracing.shutdown().catch(() => {});
  };
  for (const [index, service] of services.entries()) {
    const config = configs[index]!;
    const logger = createLogger({ name: service.name, level: config.LOG_LEVEL });
    try {
      const started = await service.start(config, logger, options.hub ? { hub: options.hub } : {});
      running.push(started);
      logger.info(
        { url: started.url },
        `${service.name} service listening on ${started.url} (docs: ${started.url}/docs)`,
      );
    } catch (error) {
      if (error instanceof StartupError) {
        process.stderr.write(`${service.name}: ${error.message}\n`);
        logger.fatal(error.message);
      } else {
        logger.fatal({ err: error }, `${service.name} service failed to start`);
      }
      await closeAll().catch(() => {});
      process.exit(1);
    }
  }

  if (running.length > 0) {
    installShutdownHandlers({
      logger: createLogger({
        name: services.length === 1 ? services[0]!.name : 'tessera',
        level: configs[0]!.LOG_LEVEL,
      }),
      graceMs: Math.max(...configs.map((config) => config.SHUTDOWN_GRACE_MS)),
      close: closeAll,
    });
  }
  return running;
}
