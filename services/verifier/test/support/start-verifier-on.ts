// Shared by the hardening tests: the verifier app on a database and bus the test
// chooses (private servers that a fault test stops and starts), and small helpers.
import { eq } from 'drizzle-orm';
import { migrateDatabase, openDatabase, type App, type Database, type Logger, type MessageBus } from '@tessera/service-kit';
import { silentLogger } from '@tessera/service-kit/testing';
import { buildApp } from '../../src/app.js';
import type { VerifierConfig } from '../../src/config.js';
import { KeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import type { PlatformCa } from '../../src/crypto/platform-ca.js';
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { presentationSessions, schema, type SessionRow, type VerifierDbSchema } from '../../src/db/schema.js';
import { openKeyStore } from '../../src/use-cases/open-key-store.js';
import { createTestIdp, testConfig } from './harness.js';

/** Codes a well-formed but failing response may end a session with (VERIFIER.md, Verification), and a wallet error. */
export const VERIFICATION_CODES = [
  'INVALID_VP_TOKEN',
  'ISSUER_SIGNATURE_INVALID',
  'DISCLOSURE_INVALID',
  'ISSUER_NOT_TRUSTED',
  'CREDENTIAL_EXPIRED',
  'CREDENTIAL_NOT_YET_VALID',
  'KEY_BINDING_INVALID',
  'NONCE_MISMATCH',
  'AUDIENCE_MISMATCH',
  'KEY_BINDING_STALE',
  'TRANSACTION_DATA_MISMATCH',
  'DEVICE_SIGNATURE_INVALID',
  'DCQL_NOT_SATISFIED',
  'CREDENTIAL_REVOKED',
  'CREDENTIAL_SUSPENDED',
  'STATUS_LIST_UNAVAILABLE',
  'WALLET_ERROR',
];

export interface VerifierUnderTest {
  app: App;
  config: VerifierConfig;
  database: Database<VerifierDbSchema>;
  ca: PlatformCa;
  keyEncryptionKey: KeyEncryptionKey;
  auth(orgId: string, roles?: string[]): Promise<{ authorization: string }>;
  close(): Promise<void>;
}

export interface StartVerifierOptions {
  /** An empty or migrated database URL (migrated here), or an open, migrated database (closed by the caller). */
  databaseUrl?: string;
  database?: Database<VerifierDbSchema>;
  bus: MessageBus;
  config?: Record<string, string>;
  logger?: Logger;
}

/** The verifier app on `databaseUrl` and `bus` (both owned by the caller, closed with the app). */
export async function startVerifierOn(options: StartVerifierOptions): Promise<VerifierUnderTest> {
  const config = testConfig(options.config);
  const database = options.database ?? (await openDatabase({ schema, url: options.databaseUrl!, connectTimeoutSeconds: 2 }));
  if (!options.database) await migrateDatabase(database, { service: 'verifier', migrationsFolder: MIGRATIONS_FOLDER, url: options.databaseUrl! });
  const keyEncryptionKey = new KeyEncryptionKey(config.KEY_ENCRYPTION_KEY!);
  const ca = await openKeyStore({ db: database.db, keyEncryptionKey }, { config, now: new Date() });
  const { verifyToken, mint } = await createTestIdp();
  const app = await buildApp({ config, database, bus: options.bus, verifyToken, logger: options.logger ?? silentLogger(), keyEncryptionKey, platformCa: ca });
  return {
    app,
    config,
    database,
    ca,
    keyEncryptionKey,
    auth: async (orgId, roles = ['verifier']) => ({ authorization: `Bearer ${await mint({ orgRoles: { [orgId]: roles } })}` }),
    close: async () => {
      await app.close();
      await options.bus.close();
      if (!options.database) await database.close();
    },
  };
}

export async function sessionRow(database: Database<VerifierDbSchema>, id: string): Promise<SessionRow> {
  const [row] = await database.db.select().from(presentationSessions).where(eq(presentationSessions.id, id));
  if (!row) throw new Error(`no session ${id}`);
  return row;
}

export { waitFor } from '@tessera/service-kit/testing';
