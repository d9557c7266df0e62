import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { describe, expect, test as base } from 'vitest';
import { migratePostgresUrl, openDatabase, readJournalMigrations, rowsOf } from '@tessera/service-kit';
import {
  createEmptyDatabase,
  createTestIdentityProvider,
  freePort,
  migrationsFolderUpTo,
  missingServer,
  testBackends,
  waitFor,
} from '@tessera/service-kit/testing';
import { generateKeyEncryptionKey } from '../../src/crypto/key-encryption.js';
// The schema-version check at start: the migrations folder itself (src/db).
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { temporaryDirectory } from '../support/fixtures.js';
import { VERIFIER_MAIN } from '../support/service-process.js';

const VERIFIER_MIGRATE = fileURLToPath(new URL('../../dist/migrate.js', import.meta.url));
const test = base.extend('dir', { scope: 'file' }, temporaryDirectory('tessera-verifier-schema-'));

interface Replica {
  base: string;
  output: () => string;
  child: ChildProcess;
}

// Two replicas of this version started against the previous release's schema, with
// MIGRATE_ON_START off (production): neither is ready nor serves until the migration
// Job (`node dist/migrate.js`) has run; then both become ready without a restart.
describe.skipIf(missingServer('postgres', 'verifier replicas against an older schema'))(
  'verifier: schema-version check at start',
  () => {
    test(
      'two replicas of a new version against an old schema serve nothing until the migration finished, then both become ready',
      { timeout: 90000 },
      async ({ dir }) => {
        const adminUrl = testBackends().postgres.adminUrl!;
        const url = await createEmptyDatabase(adminUrl);
        const replicas: Replica[] = [];
        try {
          // The schema the previous release left: every committed migration but the newest.
          const journal = readJournalMigrations(MIGRATIONS_FOLDER);
          const previous = {
            folder: migrationsFolderUpTo(MIGRATIONS_FOLDER, journal.at(-2)!.tag),
            newest: journal.at(-1)!.tag,
          };
          await migratePostgresUrl(url, { service: 'verifier', migrationsFolder: previous.folder });
          rmSync(previous.folder, { recursive: true, force: true });
          const idp = await createTestIdentityProvider();
          const jwksFile = join(dir, 'jwks.json');
          writeFileSync(jwksFile, JSON.stringify(idp.jwks));
          const env = {
            PATH: process.env.PATH ?? '',
            NODE_ENV: 'production',
            HOST: '127.0.0.1',
            // Two replicas on one host: each its own metrics port (production's default is fixed).
            METRICS_PORT: '0',
            DATABASE_URL: url,
            PUBLIC_BASE_URL: 'https://verifier.schema.test',
            KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
            OIDC_ISSUER: idp.issuer,
            OIDC_AUDIENCE: idp.audience,
            OIDC_JWKS_FILE: jwksFile,
            LOG_LEVEL: 'info',
          };
          for (let i = 0; i < 2; i++) {
            const port = await freePort();
            const child = spawn(process.execPath, [VERIFIER_MAIN], {
              env: { ...env, PORT: String(port) },
              stdio: ['ignore', 'pipe', 'pipe'],
            });
            let output = '';
            child.stdout!.on('data', (chunk) => (output += String(chunk)));
            child.stderr!.on('data', (chunk) => (output += String(chunk)));
            replicas.push({ base: `http://127.0.0.1:${port}`, output: () => output, child });
          }
          const ready = async (replica: Replica) => {
            const response = await fetch(`${replica.base}/health/ready`);
            return { status: response.status, body: (await response.json()) as unknown };
          };

          for (const replica of replicas) {
            await waitFor(
              async () => (await ready(replica).catch(() => undefined)) !== undefined,
              20000,
              `the replica to listen (${replica.output()})`,
            );
            expect(await ready(replica)).toEqual({
              status: 503,
              body: { status: 'unavailable', checks: { database: 'ok', schema: 'behind' } },
            });
            expect((await fetch(`${replica.base}/health`)).status).toBe(200);
            const refused = await fetch(`${replica.base}/oid4vp/platform-ca.pem`);
            expect(refused.status).toBe(503);
            expect(await refused.json()).toMatchObject({ statusCode: 503, code: 'DEPENDENCY_UNAVAILABLE' });
            expect(replica.output()).toContain(`expected up to ${previous.newest}`);
          }
          // Waiting is not starting: no start step ran against the old schema (the platform CA is created at start).
          const database = await openDatabase({ schema: {}, url, poolSize: 1 });
          try {
            expect(
              rowsOf<{ n: number }>(
                await database.db.execute(sql`select count(*)::int as n from verifier.platform_settings`),
              ),
            ).toEqual([{ n: 0 }]);
          } finally {
            await database.close();
          }

          const migrate = spawn(process.execPath, [VERIFIER_MIGRATE], {
            env: { PATH: env.PATH, DATABASE_URL: url, LOG_LEVEL: 'warn' },
            stdio: 'ignore',
          });
          expect(await new Promise((resolve) => migrate.on('exit', resolve))).toBe(0);

          for (const replica of replicas) {
            await waitFor(
              async () => (await ready(replica).catch(() => ({ status: 0 }))).status === 200,
              20000,
              `the replica to become ready (${replica.output()})`,
            );
            expect(await ready(replica)).toEqual({
              status: 200,
              body: { status: 'ok', checks: { database: 'ok', nats: 'ok' } },
            });
            expect((await fetch(`${replica.base}/oid4vp/platform-ca.pem`)).status).toBe(200);
            expect(replica.child.exitCode).toBeNull();
          }
        } finally {
          await Promise.all(
            replicas.map(
              (replica) =>
                new Promise((resolve) =>
                  replica.child.exitCode !== null
                    ? resolve(null)
                    : (replica.child.on('exit', resolve), replica.child.kill('SIGTERM')),
                ),
            ),
          );
          const admin = await openDatabase({ schema: {}, url: adminUrl, poolSize: 1 });
          await admin.db
            .execute(sql.raw(`drop database if exists "${new URL(url).pathname.slice(1)}" with (force)`))
            .catch(() => {});
          await admin.close();
        }
      },
    );
  },
);
