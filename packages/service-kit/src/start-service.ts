import { join } from 'node:path';
import { shouldMigrateOnStart } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { migrateDatabase } from './db/migrate.js';
import { waitForCurrentSchema } from './wait-for-schema.js';
import type { App } from './create-app.js';
import type { Logger } from './logger.js';
import { createCloser } from './shutdown.js';
import { connectBusFromConfig } from './bus/connect-bus.js';
import type { InProcessHub } from './bus/in-process-bus.js';
import type { MessageBus } from './bus/message-bus.js';
import type { DatabaseMetrics } from './metrics/database-metrics.js';
import { metricsPortOf, type MetricsConfig } from './metrics/metrics-config.js';
import { startMetricsServer } from './metrics/metrics-server.js';
import { createServiceMetrics, type ServiceMetrics } from './metrics/service-metrics.js';

/** The NATS variables `connectBusFromConfig` reads. */
type NatsConfig = Parameters<typeof connectBusFromConfig>[0];

/** A started service, as `main.ts` and the one-process launcher of `npm start` hold it. */
export interface RunningService {
  name: string;
  app: App;
  /** Base URL a local client can use. */
  url: string;
  /** Where its metrics are served (`GET /metrics` on METRICS_HOST:METRICS_PORT), when they are. */
  metricsUrl?: string;
  /** Stops taking requests, finishes in-flight ones and closes the service's connections. */
  close(): Promise<void>;
}

/** The config every service shares (see `commonConfigProperties`). */
export interface CommonConfig {
  NODE_ENV: string;
  PORT: number;
  HOST: string;
  DATABASE_URL?: string;
  DATABASE_CA_FILE?: string;
  DATA_DIR: string;
  MIGRATE_ON_START?: boolean;
  DB_POOL_SIZE: number;
  DB_CONNECT_TIMEOUT_SECONDS: number;
}

export interface OpenServiceDatabaseOptions<TSchema extends Record<string, unknown>> {
  service: string;
  config: CommonConfig;
  schema: TSchema;
  migrationsFolder: string;
  logger: Logger;
  /** While the schema is behind, how often it is read again (`waitForCurrentSchema`). */
  schemaRecheckMs?: number;
  /** Where the pool and the migrations applied are reported (the service's metrics). */
  metrics?: DatabaseMetrics;
}

/**
 * Opens the service's database (DATABASE_URL, else PGlite under DATA_DIR/<service>)
 * and applies its migrations when MIGRATE_ON_START says so.
 */
export async function openServiceDatabase<TSchema extends Record<string, unknown>>(
  options: OpenServiceDatabaseOptions<TSchema>,
): Promise<Database<TSchema>> {
  const { config } = options;
  const database = await openDatabase({
    schema: options.schema,
    service: options.service,
    ...(config.DATABASE_URL
      ? {
          url: config.DATABASE_URL,
          caFile: config.DATABASE_CA_FILE,
          poolSize: config.DB_POOL_SIZE,
          connectTimeoutSeconds: config.DB_CONNECT_TIMEOUT_SECONDS,
          ...poolObserverOf(options.metrics, config.DB_POOL_SIZE),
        }
      : { dataDir: join(config.DATA_DIR, options.service) }),
  });
  options.logger.info(
    { database: database.kind },
    `database: ${database.kind === 'pglite' ? `embedded PGlite in ${join(config.DATA_DIR, options.service)}` : 'PostgreSQL server'}`,
  );
  try {
    if (shouldMigrateOnStart(config)) {
      await migrateDatabase(database, {
        service: options.service,
        migrationsFolder: options.migrationsFolder,
        url: config.DATABASE_URL,
        caFile: config.DATABASE_CA_FILE,
      });
      options.logger.info('migrations applied');
    }
    // The schema-version check: nothing below meets a schema older than the code. Its
    // reading of the migrations table is also what the migrations gauge reports.
    const version = await waitForCurrentSchema(database, {
      service: options.service,
      migrationsFolder: options.migrationsFolder,
      logger: options.logger,
      listenOn: config,
      ...(options.schemaRecheckMs ? { recheckMs: options.schemaRecheckMs } : {}),
    });
    options.metrics?.migrationsApplied.set(version.applied);
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  return database;
}

function poolObserverOf(metrics: DatabaseMetrics | undefined, size: number) {
  const pool = metrics?.observePool(size);
  return pool ? { pool } : {};
}

/** Listens on HOST:PORT and returns the base URL a local client can use. */
export async function listen(app: App, config: Pick<CommonConfig, 'HOST' | 'PORT'>): Promise<string> {
  await app.listen({ host: config.HOST, port: config.PORT });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const host = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(config.HOST) ? 'localhost' : config.HOST;
  return `http://${host}:${port}`;
}

/** What a service's `build` step gets: a way to open resources that are closed for it. */
export interface ServiceResources {
  /** The service's database (`openServiceDatabase`), closed with the service. */
  openDatabase<TSchema extends Record<string, unknown>>(
    options: OpenServiceDatabaseOptions<TSchema>,
  ): Promise<Database<TSchema>>;
  /** The service's bus (`connectBusFromConfig`: NATS, or the in-process transport on `hub`), closed with the service. */
  connectBus(config: NatsConfig, options: { name: string; logger: Logger; hub?: InProcessHub }): Promise<MessageBus>;
  /**
   * Opens a resource (pool, bus connection, listener). It is closed when the service
   * closes, after the server stopped taking requests, in reverse order of opening; and
   * at once when a later step of the start fails, so a failed start leaves nothing open.
   */
  open<T>(name: string, opener: () => Promise<T>, close: (resource: T) => Promise<void>): Promise<T>;
  /** The service's metrics (its own registry), served on METRICS_PORT once the app is built; `buildApp` records into them. */
  metrics: ServiceMetrics;
}

export interface StartServiceOptions {
  name: string;
  config: Pick<CommonConfig, 'HOST' | 'PORT'> & MetricsConfig;
  /** The service's metrics port when METRICS_PORT is unset (`metricsPortOf`); without either, no metrics listener. */
  defaultMetricsPort?: number;
  logger: Logger;
  /** Opens what the service needs through `resources` and builds its app (`buildApp`). */
  build: (resources: ServiceResources) => Promise<App>;
}

/**
 * The start every `server.ts` shares: open resources and build the app, listen, and
 * return the running service whose `close` stops the server and then the resources.
 */
export async function startService(options: StartServiceOptions): Promise<RunningService> {
  const opened: Array<{ name: string; close: () => Promise<void> }> = [];
  const open: ServiceResources['open'] = async (name, opener, close) => {
    const resource = await opener();
    opened.unshift({ name, close: () => close(resource) });
    return resource;
  };
  const metrics = createServiceMetrics({
    service: options.name,
    processDefaults: true,
    enabled: options.config.METRICS_ENABLED ?? true,
  });
  const resources: ServiceResources = {
    open,
    metrics,
    openDatabase: (databaseOptions) =>
      open(
        'database',
        () => openServiceDatabase({ metrics: metrics.database, ...databaseOptions }),
        (database) => database.close(),
      ),
    connectBus: (config, busOptions) =>
      open(
        'bus',
        () => connectBusFromConfig(config, busOptions),
        (bus) => bus.close(),
      ),
  };
  let app: App | undefined;
  try {
    app = await options.build(resources);
    const metricsPort = !metrics.enabled
      ? undefined
      : (options.config.METRICS_PORT ??
        (options.defaultMetricsPort === undefined
          ? undefined
          : metricsPortOf(options.config, options.defaultMetricsPort)));
    const metricsServer =
      metricsPort === undefined
        ? undefined
        : await open(
            'metrics listener',
            () =>
              startMetricsServer({
                registry: metrics.registry,
                host: options.config.METRICS_HOST ?? '0.0.0.0',
                port: metricsPort,
              }),
            (server) => server.close(),
          );
    const url = await listen(app, options.config);
    return {
      name: options.name,
      app,
      url,
      ...(metricsServer ? { metricsUrl: metricsServer.url } : {}),
      close: createCloser({ app, logger: options.logger, resources: opened }),
    };
  } catch (error) {
    await app?.close().catch(() => {});
    for (const resource of opened) await resource.close().catch(() => {});
    throw error;
  }
}
