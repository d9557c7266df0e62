import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode } from '@tessera/contracts';
import { createApp } from './create-app.js';
import type { Database } from './db/database.js';
import type { MigrateOptions } from './db/migrate.js';
import { describeSchemaVersion, readSchemaVersion, type SchemaVersion } from './db/schema-version.js';
import { CheckState } from './health.js';
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

  options.logger.error({ schema: version }, describeSchemaVersion(options.service, version));
  const holding = await listenWhileBehind(database, options, () => version);
  const relogMs = options.relogMs ?? 60_000;
  let loggedAt = Date.now();
  try {
    while (version.state === 'behind') {
      await sleep(options.recheckMs ?? 2000);
      try {
        version = await readSchemaVersion(database, migrations);
      } catch (error) {
        // The database away for a moment: keep waiting, readiness reports it.
        options.logger.warn({ err: error }, `${options.service}: schema version not read`);
      }
      if (version.state === 'behind' && Date.now() - loggedAt >= relogMs) {
        options.logger.error({ schema: version }, describeSchemaVersion(options.service, version));
        loggedAt = Date.now();
      }
    }
  } finally {
    await holding.close();
  }
  options.logger.info({ schema: version }, `${describeSchemaVersion(options.service, version)}: starting`);
  return version;
}

/** The holding answers on the service's address while the schema is behind (see `waitForCurrentSchema`). */
async function listenWhileBehind(
  database: Database<Record<string, unknown>>,
  options: WaitForSchemaOptions,
  current: () => SchemaVersion,
) {
  const app = await createApp({
    name: options.service,
    title: `Tessera ${options.service} service (waiting for migrations)`,
    description: 'Answers health only until the database schema is current.',
    logger: options.logger,
    bodyLimit: 1024,
    readiness: {
      database: () => database.ping(),
      schema: async () => {
        const version = current();
        if (version.state === 'behind') throw new CheckState('behind', describeSchemaVersion(options.service, version));
      },
    },
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/health' || request.url.startsWith('/health/') || request.url.startsWith('/health?')) return;
    return reply.code(503).header('retry-after', '5').send({
      statusCode: 503,
      error: 'Service Unavailable',
      code: ErrorCode.DEPENDENCY_UNAVAILABLE,
      message: NOT_READY_MESSAGE,
    });
  });
  await app.listen({ host: options.listenOn.HOST, port: options.listenOn.PORT });
  return app;
}
