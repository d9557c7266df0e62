import { join } from 'node:path';
import { Type, type Static } from 'typebox';
import { commonConfigProperties, loadConfig, loadConfigOrExit } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateDatabase, migratePostgresUrl } from './db/migrate.js';
import { databaseTlsConfigRule } from './db/postgres-tls.js';
import { createLogger } from './logger.js';

const common = commonConfigProperties(0);

/**
 * What the migrate entry reads: the database settings and nothing else. Migrating
 * verifies no token, signs nothing and talks to no bus, so a service's secrets, OIDC
 * and NATS settings are neither needed nor checked (the migration Job's pod has none).
 * NODE_ENV is read for the TLS rule alone: production refuses a connection that
 * verifies nothing, as the service itself does.
 */
export const MigrateConfigSchema = Type.Object({
  NODE_ENV: common.NODE_ENV,
  LOG_LEVEL: common.LOG_LEVEL,
  DATABASE_URL: common.DATABASE_URL,
  DATABASE_CA_FILE: common.DATABASE_CA_FILE,
  DATA_DIR: common.DATA_DIR,
});

export type MigrateConfig = Static<typeof MigrateConfigSchema>;

export function loadMigrateConfig(env: Record<string, string | undefined> = process.env): MigrateConfig {
  return loadConfig(MigrateConfigSchema, env, [databaseTlsConfigRule]);
}

export interface MigrateServiceOptions {
  /** Service name: keys the advisory lock and names the migrations table. */
  service: string;
  /** Folder of the service's committed drizzle-kit SQL migrations. */
  migrationsFolder: string;
  config: MigrateConfig;
}

/**
 * Applies the service's migrations where its config points: the PostgreSQL server of
 * DATABASE_URL (verified TLS with DATABASE_CA_FILE, under the advisory lock), else the
 * embedded PGlite under DATA_DIR/<service> that `npm start` uses.
 */
export async function migrateService(options: MigrateServiceOptions): Promise<void> {
  const { config } = options;
  const target = { service: options.service, migrationsFolder: options.migrationsFolder };
  if (config.DATABASE_URL) {
    await migratePostgresUrl(config.DATABASE_URL, { ...target, caFile: config.DATABASE_CA_FILE });
    return;
  }
  const database = await openDatabase({ schema: {}, dataDir: join(config.DATA_DIR, options.service) });
  try {
    await migrateDatabase(database, target);
  } finally {
    await database.close();
  }
}

export interface RunMigrateMainOptions {
  service: string;
  migrationsFolder: string;
  /** The environment to read; `process.env` unless given. */
  env?: Record<string, string | undefined>;
}

/**
 * Every service's `migrate.ts` (the migrate init container's `node dist/migrate.js`):
 * reads the database settings (one line per bad variable, exit 1), applies the
 * migrations and exits 0, or logs why not and exits 1.
 */
export async function runMigrateMain(options: RunMigrateMainOptions): Promise<never> {
  const config = loadConfigOrExit(() => loadMigrateConfig(options.env ?? process.env), options.service);
  const logger = createLogger({ name: `${options.service}-migrate`, level: config.LOG_LEVEL });
  try {
    await migrateService({ service: options.service, migrationsFolder: options.migrationsFolder, config });
    logger.info(
      { database: config.DATABASE_URL ? 'postgres' : 'pglite' },
      `migrations complete (${config.DATABASE_URL ? 'PostgreSQL server' : `embedded PGlite in ${join(config.DATA_DIR, options.service)}`})`,
    );
    process.exit(0);
  } catch (error) {
    logger.error({ err: error }, 'migrations failed');
    process.exit(1);
  }
}
