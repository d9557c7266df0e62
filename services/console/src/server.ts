import {
  createLogger,
  ensureDevSecret,
  mintDevToken,
  type Logger,
  type RunningService,
  type ServiceDefinition,
  startService,
  systemClock,
} from '@tessera/service-kit';
import { buildApp } from './app.js';
import { DEFAULT_METRICS_PORT, loadConsoleConfig, SERVICE_NAME, type ConsoleConfig } from './config.js';

/**
 * Builds the console and listens. The console opens no database and no bus: its
 * only resources are the services' public APIs, reached over HTTP per request.
 */
export async function startConsole(
  config: ConsoleConfig,
  logger: Logger = createLogger({ name: SERVICE_NAME, level: config.LOG_LEVEL }),
): Promise<RunningService> {
  const development = config.NODE_ENV === 'development';
  // The config refuses a missing SESSION_SECRET outside development.
  const sessionSecret = config.SESSION_SECRET ?? ensureDevSecret(config.DATA_DIR, 'CONSOLE_SESSION_SECRET');
  return startService({
    name: SERVICE_NAME,
    config,
    defaultMetricsPort: DEFAULT_METRICS_PORT,
    logger,
    build: async ({ metrics }) =>
      buildApp({
        config,
        logger,
        sessionSecret,
        metrics,
        clock: systemClock,
        // The development key of DATA_DIR/dev-oidc, which the services trust in development only.
        ...(development
          ? {
              mintDevelopmentToken: (claims) =>
                mintDevToken(config.DATA_DIR, {
                  sub: claims.sub,
                  ...(claims.email ? { email: claims.email } : {}),
                  platformAdmin: claims.platformAdmin,
                  orgRoles: claims.orgRoles,
                  expiresInSeconds: 3600,
                }),
            }
          : {}),
      }),
  });
}

export { loadConsoleConfig, type ConsoleConfig } from './config.js';

/** The console as `runServiceMain` runs it (`main.ts`, and `npm start` beside the three services). */
export const consoleService: ServiceDefinition<ConsoleConfig> = {
  name: SERVICE_NAME,
  loadConfig: loadConsoleConfig,
  start: startConsole,
};
