import {
  migrateDatabase,
  openDatabase,
  type App,
  type Logger,
  type MessageBus,
  type ServiceMetrics,
} from '@tessera/service-kit';
import {
  appCaller,
  createTestBusNamespace,
  createTestDatabase,
  createTestIdentityProvider,
  silentLogger,
  TEST_OIDC_AUDIENCE,
  TEST_OIDC_ISSUER,
  type AppCaller,
  type TestDatabase,
  type TestIdentityProvider,
} from '@tessera/service-kit/testing';
import { buildApp } from '../../src/app.js';
import {
  loadVerifierConfig,
  platformCaPemOf,
  previousKeyEncryptionKeysOf,
  type VerifierConfig,
} from '../../src/config.js';
import { generateKeyEncryptionKey, KeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import type { PlatformCa } from '../../src/crypto/platform-ca.js';
// The app's database is the verifier's schema, migrated: opening it is the one reason the harness reaches into src/db.
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { schema, type VerifierDbSchema } from '../../src/db/schema.js';
import { openKeyStore, verifyKeyEncryptionKey } from '../../src/use-cases/open-key-store.js';
import { describeUnopenedValues, resealSealedValues } from '../../src/use-cases/reseal-sealed-values.js';
import type { SessionEventHub } from '../../src/state/session-event-hub.js';
import type { TrustListSnapshots } from '../../src/state/trust-list-snapshots.js';
import type { VerificationCache } from '../../src/verification/index.js';
import type { WebhookSender } from '../../src/webhooks/create-webhook-sender.js';

export const PUBLIC_BASE_URL = 'https://verifier.tessera.test';

/** The OIDC variables of a config trusting the kit's test identity provider (for a process the test spawns). */
export const TEST_OIDC_ENV = {
  OIDC_ISSUER: TEST_OIDC_ISSUER,
  OIDC_AUDIENCE: TEST_OIDC_AUDIENCE,
  OIDC_JWKS_URI: 'https://idp.tessera.test/jwks',
};

/** The verifier's config in tests: silent, a fresh KEY_ENCRYPTION_KEY, the test identity provider, a wallet rate limit no test reaches by accident. */
export function testConfig(overrides: Record<string, string> = {}): VerifierConfig {
  return loadVerifierConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL,
    KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
    ...TEST_OIDC_ENV,
    WALLET_RATE_LIMIT_MAX: '10000',
    // Tests send many requests per session (fuzzing); the per-session limits have their own tests.
    SESSION_REQUEST_FETCH_LIMIT: '10000',
    SESSION_RESPONSE_LIMIT: '10000',
    // NODE_ENV=test keeps production's status list rules; the test status list servers
    // listen on plain http on loopback, so they are named as internal hosts.
    STATUS_LIST_ALLOW_HTTP: 'true',
    STATUS_LIST_INTERNAL_HOSTS: '127.0.0.1,localhost',
    ...overrides,
  });
}

/** The verifier app as `server.ts` builds it, on a database and bus of the test, trusting a test identity provider. */
export interface Harness {
  app: App;
  /** Calls the app in process (`appCaller`): the one way the services' tests call their app. */
  call: AppCaller;
  /** The identity provider the app trusts. */
  idp: TestIdentityProvider;
  config: VerifierConfig;
  testDb: TestDatabase<VerifierDbSchema>;
  /** The app's bus: it answers `verifier.v1.verification-template.get` and publishes session events on it. */
  bus: MessageBus;
  /** Another service's connection to the app's bus (same server and subject namespace). */
  connectPeer(name: string): Promise<MessageBus>;
  /** The platform CA opened at start. */
  ca: PlatformCa;
  keyEncryptionKey: KeyEncryptionKey;
  /** Shifts the service's clock: `clock.offsetMs = 61_000` makes it read a minute ahead. */
  clock: { offsetMs: number };
  /** The app's ecosystem trust-list snapshots (which lists it holds, at which sequence). */
  trustLists: TrustListSnapshots;
  /** The app's session event hub (what its event streams follow). */
  sessionEventHub: SessionEventHub;
  /** Bearer header for a caller with `roles` (`verifier` unless given) in `orgId`. */
  auth(orgId: string, roles?: string[]): Promise<{ authorization: string }>;
  /** Closes the app, its bus and its database (dropped when the harness made it), then `afterClose`. */
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** The app's metrics, when the test scrapes them; a registry of the app's own otherwise. */
  metrics?: ServiceMetrics;
  /** Config variables over `testConfig`'s. */
  config?: Record<string, string>;
  /** Silent unless given. */
  logger?: Logger;
  /** Platform issuer anchors (PEM, or `{ certificatePem, credentialTypes? }`), as TRUSTED_ISSUERS_FILE would give them. */
  trustedIssuers?: Array<string | { certificatePem: string; credentialTypes?: string[] }>;
  /** Platform registrar anchors (PEM), as REGISTRAR_TRUST_ANCHORS_FILE would give them. */
  registrarAnchors?: string[];
  /** A database of the test's own (an empty one on a private server a fault test stops), migrated here; by default a fresh test database. */
  databaseUrl?: string;
  /**
   * How the app's bus and `connectPeer` connect: by default inside a fresh subject
   * namespace of the test bus (the run's NATS server, or an in-process hub when
   * there is none), so parallel test files never answer each other's requests.
   */
  connectBus?: (name: string) => Promise<MessageBus>;
  /** The app's verification cache (one per replica), when the test looks into it. */
  verificationCache?: VerificationCache;
  /** What the test opened for this harness beyond its buses and database (a private server), closed after them. */
  afterClose?: () => Promise<void>;
  /** The webhook worker's sender, when the test plays DNS for it (`createWebhookSender({ resolve })`). */
  sendWebhook?: WebhookSender;
}

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const idp = await createTestIdentityProvider();
  const config = testConfig({ ...idp.configEnv, ...options.config });
  const testDb = await openHarnessDatabase(options.databaseUrl);
  const connectPeer = options.connectBus ?? createTestBusNamespace().connect;
  const bus = await connectPeer('verifier-test');
  const keyEncryptionKey = new KeyEncryptionKey(config.KEY_ENCRYPTION_KEY!, previousKeyEncryptionKeysOf(config));
  const clock = { offsetMs: 0 };
  const now = () => new Date(Date.now() + clock.offsetMs);
  // The start steps of server.ts: key check, every sealed value under the current key (a value
  // no configured key opens fails the harness, where the server holds its start), the CA.
  await verifyKeyEncryptionKey({ db: testDb.database.db, keyEncryptionKey });
  const unopened = describeUnopenedValues(
    await resealSealedValues({ db: testDb.database.db, keyEncryptionKey }),
    keyEncryptionKey.hasPreviousKeys,
  );
  if (unopened) throw new Error(unopened.message);
  const ca = await openKeyStore(
    { db: testDb.database.db, keyEncryptionKey, clock: () => new Date() },
    { configured: platformCaPemOf(config) },
  );
  let trustLists: TrustListSnapshots | undefined;
  let sessionEventHub: SessionEventHub | undefined;
  const app = await buildApp({
    config,
    database: testDb.database,
    bus,
    verifyToken: idp.verifyToken,
    logger: options.logger ?? silentLogger(),
    keyEncryptionKey,
    platformCa: ca,
    clock: now,
    ...(options.trustedIssuers ? { trustedIssuers: options.trustedIssuers } : {}),
    ...(options.registrarAnchors ? { registrarAnchors: options.registrarAnchors } : {}),
    ...(options.verificationCache ? { verificationCache: options.verificationCache } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.sendWebhook ? { sendWebhook: options.sendWebhook } : {}),
    onTrustLists: (built) => (trustLists = built),
    onSessionEvents: (built) => (sessionEventHub = built),
  });
  return {
    app,
    call: appCaller(app),
    idp,
    config,
    testDb,
    bus,
    connectPeer,
    ca,
    keyEncryptionKey,
    clock,
    trustLists: trustLists!,
    sessionEventHub: sessionEventHub!,
    auth: (orgId, roles = ['verifier']) => idp.authHeader(orgId, roles),
    close: async () => {
      await app.close();
      await bus.close();
      await testDb.drop();
      await options.afterClose?.();
    },
  };
}

async function openHarnessDatabase(url: string | undefined): Promise<TestDatabase<VerifierDbSchema>> {
  if (!url) return createTestDatabase({ schema, service: 'verifier', migrationsFolder: MIGRATIONS_FOLDER });
  // A short connect timeout: a fault test expects 503 quickly while its server is down.
  const open = () => openDatabase({ schema, url, connectTimeoutSeconds: 2 });
  const database = await open();
  await migrateDatabase(database, { service: 'verifier', migrationsFolder: MIGRATIONS_FOLDER, url });
  // The private server goes with the test: closing the pool is all there is to drop.
  return { database, url, openAnother: open, drop: () => database.close() };
}
