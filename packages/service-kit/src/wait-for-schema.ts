import type { Database } from './db/database.js';
import type { MigrateOptions } from './db/migrate.js';
import { describeSchemaVersion, readSchemaVersion, type SchemaVersion } from './db/schema-version.js';
import { holdStartUntil } from './hold-start.js';
import type { Logger } from './logger.js';

export interface WaitForSchemaOptions extends MigrateOptions {
  logger: Logger;
  /** Where the service will listen: the holding answers are given there meanwhile. */
  listenOn: { HOST: string; PORT: number };
  /** How often the schema is read again while behind. */
  recheckMs?: number;
  /** While behind, how often the "behind" line is logged again. */
  relogMs?: number;
}

/** While the schema is behind, requests other than health are refused with this (the pod is not ready, so the load balancer should send none). */
const NOT_READY_MESSAGE = 'This replica is waiting for database migrations to run: retry shortly.';

/**
 * The schema-version check at start: returns once the database's schema is not behind the
 * code's migrations journal. While behind — new code started before its migrations ran —
 * nothing of the service is built (no start step, query or job meets the old schema): the
 * service's address answers `/health` 200 (alive: no restart), `/health/ready` 503 with
 * `checks.schema: "behind"` and everything else 503, and the schema is read again every
 * `recheckMs` until the migration (`node dist/migrate.js`, another replica's
 * MIGRATE_ON_START) has run; then that holding listener closes and the start goes on, no
 * restart needed. A schema ahead of the code (an older version during a rollback) is served,
 * with a warning: migrations keep the previous version working (README, Migrations).
 */
export async function waitForCurrentSchema(
  database: Database<Record<string, unknown>>,
  options: WaitForSchemaOptions,
): Promise<SchemaVersion> {
  const migrations = { service: options.service, migrationsFolder: options.migrationsFolder };
  let version = await readSchemaVersion(database, migrations);
  if (version.state === 'ahead')
    options.logger.warn({ schema: version }, describeSchemaVersion(options.service, version));
  if (version.state !== 'behind') return version;

  await holdStartUntil({
    service: options.service,
    logger: options.logger,
    listenOn: options.listenOn,
    database,
    notReadyMessage: NOT_READY_MESSAGE,
    ...(options.recheckMs !== undefined ? { recheckMs: options.recheckMs } : {}),
    ...(options.relogMs !== undefined ? { relogMs: options.relogMs } : {}),
    check: async () => {
      version = await readSchemaVersion(database, migrations);
      return version.state === 'behind'
        ? { ready: false, check: 'schema', state: 'behind', message: describeSchemaVersion(options.service, version) }
        : { ready: true };
    },
  });
  options.logger.info({ schema: version }, `${describeSchemaVersion(options.service, version)}: starting`);
  return version;
}
