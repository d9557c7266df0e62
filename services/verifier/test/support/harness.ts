import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { createTokenVerifier, type App, type Logger, type MessageBus } from '@tessera/service-kit';
import { createTestBusNamespace, createTestDatabase, InProcessHub, silentLogger, type TestDatabase } from '@tessera/service-kit/testing';
import { buildApp } from '../../src/app.js';
import { loadVerifierConfig, type VerifierConfig } from '../../src/config.js';
import { generateKeyEncryptionKey, KeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import type { PlatformCa } from '../../src/crypto/platform-ca.js';
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { schema, type VerifierDbSchema } from '../../src/db/schema.js';
import { openKeyStore } from '../../src/use-cases/open-key-store.js';

export const PUBLIC_BASE_URL = 'https://verifier.tessera.test';
export const ISSUER = 'https://idp.tessera.test/realms/tessera';
export const AUDIENCE = 'tessera-verifier';

/** A test OIDC provider: an ES256 key whose JWKS the service trusts, minting Keycloak-shaped tokens. */
export async function createTestIdp() {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' }] };
  const mint = (options: { sub?: string; orgRoles?: Record<string, string[]>; key?: CryptoKey; expiresIn?: string }) =>
    new SignJWT({ realm_access: { roles: [] }, resource_access: Object.fromEntries(Object.entries(options.orgRoles ?? {}).map(([org, roles]) => [org, { roles }])) })
      .setProtectedHeader({ alg: 'ES256', kid: 'test-key', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(options.sub ?? 'user-1')
      .setIssuedAt()
      .setExpirationTime(options.expiresIn ?? '10m')
      .sign(options.key ?? privateKey);
  return { verifyToken: createTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks }), mint };
}

export function testConfig(overrides: Record<string, string> = {}): VerifierConfig {
  return loadVerifierConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL,
    KEY_ENCRYPTION_KEY: generateKeyEncryptionKey(),
    OIDC_ISSUER: ISSUER,
    OIDC_AUDIENCE: AUDIENCE,
    OIDC_JWKS_URI: 'https://idp.tessera.test/jwks',
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

export interface Harness {
  app: App;
  config: VerifierConfig;
  testDb: TestDatabase<VerifierDbSchema>;
  bus: MessageBus;
  hub: InProcessHub;
  /** Another service's connection to the same bus (same NATS server and subject namespace). */
  connectPeer(name: string): Promise<MessageBus>;
  ca: PlatformCa;
  keyEncryptionKey: KeyEncryptionKey;
  mint: Awaited<ReturnType<typeof createTestIdp>>['mint'];
  /** Bearer header for a caller with `roles` in `orgId`. */
  auth(orgId: string, roles?: string[]): Promise<{ authorization: string }>;
  /** Shifts the service's clock: `clock.offsetMs = 61_000` makes it read a minute ahead. */
  clock: { offsetMs: number };
  close(): Promise<void>;
}

export interface HarnessOptions {
  config?: Record<string, string>;
  logger?: Logger;
  hub?: InProcessHub;
  testDb?: TestDatabase<VerifierDbSchema>;
  /** Platform issuer anchors (PEM, or `{ certificatePem, credentialTypes? }`), as TRUSTED_ISSUERS_FILE would give them. */
  trustedIssuers?: Array<string | { certificatePem: string; credentialTypes?: string[] }>;
}

/** The verifier app on a fresh database and a real bus, with a controllable clock. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const config = testConfig(options.config);
  const testDb = options.testDb ?? (await createTestDatabase({ schema, service: 'verifier', migrationsFolder: MIGRATIONS_FOLDER }));
  const hub = options.hub ?? new InProcessHub();
  // Every subject under a prefix of this harness: parallel test files sharing one NATS server never answer each other.
  const connectPeer = createTestBusNamespace(hub).connect;
  const bus = await connectPeer('verifier-test');
  const keyEncryptionKey = new KeyEncryptionKey(config.KEY_ENCRYPTION_KEY!);
  const ca = await openKeyStore({ db: testDb.database.db, keyEncryptionKey }, { config, now: new Date() });
  const { verifyToken, mint } = await createTestIdp();
  const clock = { offsetMs: 0 };
  const app = await buildApp({ config, database: testDb.database, bus, verifyToken, logger: options.logger ?? silentLogger(), keyEncryptionKey, platformCa: ca, now: () => new Date(Date.now() + clock.offsetMs), ...(options.trustedIssuers ? { trustedIssuers: options.trustedIssuers } : {}) });
  return {
    app,
    config,
    testDb,
    bus,
    hub,
    connectPeer,
    ca,
    keyEncryptionKey,
    mint,
    auth: async (orgId, roles = ['verifier']) => ({ authorization: `Bearer ${await mint({ orgRoles: { [orgId]: roles } })}` }),
    clock,
    close: async () => {
      await app.close();
      await bus.close();
      if (!options.testDb) await testDb.drop();
    },
  };
}
