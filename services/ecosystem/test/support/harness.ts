import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { createTokenVerifier, InProcessBus, type App, type MessageBus } from '@tessera/service-kit';
import { createTestDatabase, InProcessHub, silentLogger, type TestDatabase } from '@tessera/service-kit/testing';
import { buildApp } from '../../src/app.js';
import { loadEcosystemConfig } from '../../src/config.js';
import { schema, type EcosystemDbSchema } from '../../src/db/schema.js';
import { MIGRATIONS_FOLDER } from '../../src/db/migrations-folder.js';
import { openResolutionCache } from '../../src/cache/change-notifications.js';
import type { IntentResolution } from '../../src/use-cases/resolve-intent.js';

export const ISSUER = 'https://idp.test/realms/tessera';
export const AUDIENCE = 'tessera-api';

export interface TokenSpec {
  sub: string;
  email?: string;
  platformAdmin?: boolean;
  /** Roles per organisation id, in Keycloak's `resource_access` layout. */
  orgs?: Record<string, string[]>;
  expiresIn?: string | number;
  issuer?: string;
  audience?: string;
  /** Sign with another key than the trusted one. */
  key?: CryptoKey;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Harness {
  app: App;
  testDb: TestDatabase<EcosystemDbSchema>;
  bus: MessageBus;
  hub: InProcessHub;
  sign(spec: TokenSpec): Promise<string>;
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options?: CallOptions): Promise<{ status: number; body: any; headers: Record<string, unknown>; raw: string }>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  enabled?: boolean;
  /** A bus for the app; by default an in-process bus on a hub private to this harness. */
  bus?: MessageBus;
}

/** A real app on a fresh test database, trusting a key generated for this test file. */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' }] };
  const testDb = await createTestDatabase({ schema, service: 'ecosystem', migrationsFolder: MIGRATIONS_FOLDER });
  const hub = new InProcessHub();
  const bus = options.bus ?? new InProcessBus(hub);
  const config = loadEcosystemConfig({
    NODE_ENV: 'test',
    OIDC_ISSUER: ISSUER,
    OIDC_AUDIENCE: AUDIENCE,
    OIDC_JWKS_FILE: '/unused/jwks.json',
    ECOSYSTEM_ENABLED: String(options.enabled ?? true),
    MAX_BODY_BYTES: '65536',
  });
  const cache = await openResolutionCache<IntentResolution>({ database: testDb.database, ttlMs: config.RESOLVE_CACHE_TTL_MS });
  const app = await buildApp({ config, database: testDb.database, bus, verifyToken: createTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks }), logger: silentLogger(), resolutions: cache.resolutions });

  const sign = tokenSigner(privateKey);
  const call = appCaller(app);

  return {
    app,
    testDb,
    bus,
    hub,
    sign,
    call,
    close: async () => {
      await app.close();
      await bus.close();
      await cache.close();
      await testDb.drop();
    },
  };
}

/** Signs test access tokens in Keycloak's claim layout with the harness key (or `spec.key`). */
export function tokenSigner(privateKey: CryptoKey): Harness['sign'] {
  return async (spec) =>
    new SignJWT({
      ...(spec.email ? { email: spec.email } : {}),
      realm_access: { roles: spec.platformAdmin ? ['platform_admin'] : ['offline_access'] },
      resource_access: Object.fromEntries(Object.entries(spec.orgs ?? {}).map(([org, roles]) => [org, { roles }])),
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'test-key', typ: 'JWT' })
      .setIssuer(spec.issuer ?? ISSUER)
      .setAudience(spec.audience ?? AUDIENCE)
      .setSubject(spec.sub)
      .setIssuedAt()
      .setExpirationTime(spec.expiresIn ?? '10m')
      .sign(spec.key ?? privateKey);
}

/** Calls the app with `inject`, a bearer token and a JSON body; the body is parsed when it is JSON. */
export function appCaller(app: App): Harness['call'] {
  return async (method, url, callOptions = {}) => {
    const response = await app.inject({
      method,
      url,
      headers: { ...(callOptions.token ? { authorization: `Bearer ${callOptions.token}` } : {}), ...callOptions.headers },
      ...(callOptions.body !== undefined ? { payload: callOptions.body as object } : {}),
    });
    let body: unknown;
    try {
      body = response.json();
    } catch {
      body = undefined;
    }
    return { status: response.statusCode, body, headers: response.headers, raw: response.body };
  };
}
