import {
  InProcessBus,
  migrateDatabase,
  openDatabase,
  systemClock,
  type App,
  type Clock,
  type Database,
  type Logger,
  type MessageBus,
  type ServiceMetrics,
} from '@tessera/service-kit';
import {
  appCaller,
  createTestDatabase,
  createTestIdentityProvider,
  InProcessHub,
  silentLogger,
  type AppCaller,
  type TestIdentityProvider,
} from '@tessera/service-kit/testing';
import { buildApp } from '../../src/app.js';
import { openResolutionCache } from '../../src/state/change-notifications.js';
import { loadEcosystemConfig, trustListCaSourceOf } from '../../src/config.js';
import { openTrustListCa } from '../../src/crypto/trust-list-ca.js';
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { schema, type EcosystemDbSchema } from '../../src/db/schema.js';
import type { IntentResolution } from '../../src/use-cases/resolve-intent.js';
import { trustListCaEnv } from './trust-list-ca.js';

/** The ecosystem app as production builds it, on a database and bus of the test, trusting a test identity provider. */
export interface Harness {
  app: App;
  call: AppCaller;
  idp: TestIdentityProvider;
  database: Database<EcosystemDbSchema>;
  /** The database's URL (server PostgreSQL only): a second app on it is another replica. */
  databaseUrl?: string;
  /** The app's bus: it answers `ecosystem.v1.intent.resolve` and follows organisation events on it. */
  bus: MessageBus;
  /** The hub of the default in-process bus: another `InProcessBus` on it reaches the app (a stub verifier, a resolve client). */
  hub: InProcessHub;
  /** Closes the app, its bus and its database (dropped when the harness made it), then `afterClose`. */
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** ECOSYSTEM_ENABLED (default true). */
  enabled?: boolean;
  /** The app's bus (a NATS connection); by default an in-process bus on a hub of this harness. Closed with the harness. */
  bus?: MessageBus;
  /** A database of the test's own (a private server a fault test stops); by default a fresh test database. */
  databaseUrl?: string;
  /** Silent unless given. */
  logger?: Logger;
  /** What the test opened for this harness beyond the bus (a private server), closed after it. */
  afterClose?: () => Promise<void>;
  /** The app's clock (signed trust lists, `nextUpdate`, registry history, the resolution cache); default the system clock. */
  clock?: Clock;
  /** Further environment for the app's config (e.g. TRUST_LIST_VALIDITY_SECONDS). */
  env?: Record<string, string>;
  /** The app's metrics, when the test scrapes them; a registry of the app's own otherwise. */
  metrics?: ServiceMetrics;
}

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const idp = await createTestIdentityProvider();
  const { database, url, drop } = await openHarnessDatabase(options.databaseUrl);
  const hub = new InProcessHub();
  const bus = options.bus ?? new InProcessBus(hub);
  const config = loadEcosystemConfig({
    NODE_ENV: 'test',
    ...idp.configEnv,
    ...(await trustListCaEnv()),
    ECOSYSTEM_ENABLED: String(options.enabled ?? true),
    MAX_BODY_BYTES: '65536',
    ...options.env,
  });
  const clock = options.clock ?? systemClock;
  const cache = await openResolutionCache<IntentResolution>({ database, ttlMs: config.RESOLVE_CACHE_TTL_MS, clock });
  const trustListCa = await openTrustListCa(trustListCaSourceOf(config), new Date());
  const app = await buildApp({
    config,
    database,
    bus,
    verifyToken: idp.verifyToken,
    logger: options.logger ?? silentLogger(),
    resolutions: cache.resolutions,
    trustListCa,
    clock,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  return {
    app,
    call: appCaller(app),
    idp,
    database,
    ...(url ? { databaseUrl: url } : {}),
    bus,
    hub,
    close: async () => {
      await app.close();
      await bus.close();
      await cache.close();
      await drop();
      await options.afterClose?.();
    },
  };
}

async function openHarnessDatabase(
  url: string | undefined,
): Promise<{ database: Database<EcosystemDbSchema>; url?: string; drop: () => Promise<void> }> {
  if (!url) {
    const testDb = await createTestDatabase({ schema, service: 'ecosystem', migrationsFolder: MIGRATIONS_FOLDER });
    return { database: testDb.database, ...(testDb.url ? { url: testDb.url } : {}), drop: () => testDb.drop() };
  }
  // A short connect timeout: a fault test expects 503 quickly while its server is down.
  const database = await openDatabase({ schema, url, connectTimeoutSeconds: 2 });
  await migrateDatabase(database, { service: 'ecosystem', migrationsFolder: MIGRATIONS_FOLDER, url });
  return { database, url, drop: () => database.close() };
}
