// The use cases' deps as `buildApp` makes them — a fresh migrated database, a bus of
// the file's own subject namespace, the replica's state (state/) — for the tests of
// test/use-cases/: each operation specified through the deps it takes, without HTTP.
// Values are written out here rather than read from a config, so a test reads as the
// rule it states (sessions live 300 s, read grace 60 s, …).
import { decodeJwt, type JWTPayload } from 'jose';
import type { CreatePresentationBody } from '@tessera/contracts';
import { createServiceMetrics, type MessageBus, type ServiceMetrics } from '@tessera/service-kit';
import { createTestBusNamespace, silentLogger } from '@tessera/service-kit/testing';
import { generateKeyEncryptionKey, KeyEncryptionKey } from '../../src/crypto/key-encryption.js';
import type { PlatformCa } from '../../src/crypto/platform-ca.js';
// The deps name the database handle's type, as the use cases' deps do (a type, no query).
import type { VerifierDb } from '../../src/db/types.js';
import type { WalletOutcome } from '../../src/domain/wallet-refusal.js';
import { createVerifierMetrics } from '../../src/metrics/verifier-metrics.js';
import { createDataKeyRing } from '../../src/state/data-key-ring.js';
import { createReaderAuthMaterialLoader } from '../../src/state/reader-auth-material-loader.js';
import { createSigningMaterialLoader } from '../../src/state/signing-material-loader.js';
import { createStatusListChecker } from '../../src/state/status-list-checker.js';
import { TrustListSnapshots } from '../../src/state/trust-list-snapshots.js';
import { createVerificationCache } from '../../src/state/verification-cache.js';
import { createPresentationSession } from '../../src/use-cases/create-presentation-session.js';
import { createTrustAnchor } from '../../src/use-cases/create-trust-anchor.js';
import { createVerifier } from '../../src/use-cases/create-verifier.js';
import { fetchRequestObject } from '../../src/use-cases/fetch-request-object.js';
import { openKeyStore } from '../../src/use-cases/open-key-store.js';
import { receiveWalletResponse } from '../../src/use-cases/receive-wallet-response.js';
import { createTrustStoreLoader } from '../../src/use-cases/steps/load-trust-store.js';
import { sdJwtQuery } from './dcql-queries.js';
import { databaseTest } from './fixtures.js';
import { PUBLIC_BASE_URL } from './harness.js';
import { createIssuer, issuePid, newHolder, type Holder, type TestIssuer } from './issuers.js';
import { presentPid, type RequestFacts } from './holder.js';
import { listenToSessionEvents, type SessionEvents } from './events.js';
import { ORG } from './management.js';

/** Shifts the deps' clock: `clock.offsetMs = 301_000` reads five minutes and a second ahead. */
export interface TestClock {
  (): Date;
  offsetMs: number;
}

function testClock(): TestClock {
  const clock = (() => new Date(Date.now() + clock.offsetMs)) as TestClock;
  clock.offsetMs = 0;
  return clock;
}

/** Every use case's deps in one object (each use case reads the part its deps type names). */
export interface UseCaseDeps {
  db: VerifierDb;
  bus: MessageBus;
  clock: TestClock;
  logger: ReturnType<typeof silentLogger>;
  keyEncryptionKey: KeyEncryptionKey;
  ca: PlatformCa;
  host: string;
  baseUrl: string;
  sessionTtlSeconds: number;
  ecosystemTimeoutMs: number;
  metrics: ReturnType<typeof createVerifierMetrics>;
  loadSigningMaterial: ReturnType<typeof createSigningMaterialLoader>;
  loadReaderAuthMaterial: ReturnType<typeof createReaderAuthMaterialLoader>;
  dataKeys: ReturnType<typeof createDataKeyRing>;
  trustLists: TrustListSnapshots;
  statusLists: ReturnType<typeof createStatusListChecker>;
  verificationCache: ReturnType<typeof createVerificationCache>;
  loadTrustStore: ReturnType<typeof createTrustStoreLoader>;
  sessionLimits: { requestFetches: number; responses: number; windowMs: number };
  presentationData: { ttlSeconds: number; readGraceSeconds: number };
  kbMaxAgeSeconds: number;
  clockSkewSeconds: number;
  webhookTargets: { allowHttp: boolean; denyPrivateAddresses: boolean };
  /** Counts the webhook worker's wake-ups (the worker itself is not running here). */
  wakeDeliveries: () => void;
  wakes: number;
}

export interface UseCaseWorld {
  deps: UseCaseDeps;
  /** Where `deps.metrics` counts (scraped with `metricSample`). */
  registry: ServiceMetrics['registry'];
  /** `verifier.v1.session.updated` as another service receives them. */
  events: SessionEvents;
  /** ORG's verifier `desk`, and an issuer ORG trusts (a trust anchor). */
  desk: string;
  issuer: TestIssuer;
}

/** Limits no test reaches by accident; the limit tests set their own on a copy of the deps. */
const GENEROUS_LIMITS = { requestFetches: 10_000, responses: 10_000, windowMs: 60_000 };

/**
 * `test` with `world`: the deps on a fresh database and bus namespace, ORG's verifier
 * `desk` and a trusted issuer (both made through their use cases), and the session
 * events a peer receives. Made for the file when a test first asks for it.
 */
export const useCaseTest = databaseTest.extend(
  'world',
  { scope: 'file' },
  async ({ testDb }, { onCleanup }): Promise<UseCaseWorld> => {
    const namespace = createTestBusNamespace();
    const bus = await namespace.connect('verifier-use-cases');
    const events = await listenToSessionEvents(namespace.connect);
    onCleanup(async () => {
      await events.close();
      await bus.close();
    });
    const db = testDb.database.db;
    const clock = testClock();
    const logger = silentLogger();
    const keyEncryptionKey = new KeyEncryptionKey(generateKeyEncryptionKey());
    const ca = await openKeyStore({ db, keyEncryptionKey, clock });
    const host = new URL(PUBLIC_BASE_URL).hostname;
    const { registry } = createServiceMetrics({ service: 'verifier' });
    const metrics = createVerifierMetrics(registry);
    const verificationCache = createVerificationCache();
    const loadSigningMaterial = createSigningMaterialLoader({ db, keyEncryptionKey, ca, host, clock });
    const deps: UseCaseDeps = {
      db,
      bus,
      clock,
      logger,
      keyEncryptionKey,
      ca,
      host,
      baseUrl: PUBLIC_BASE_URL,
      sessionTtlSeconds: 300,
      ecosystemTimeoutMs: 2000,
      metrics,
      loadSigningMaterial,
      loadReaderAuthMaterial: createReaderAuthMaterialLoader({ db, ca, host, clock, loadSigningMaterial }),
      dataKeys: createDataKeyRing({ db, keyEncryptionKey, clock }),
      trustLists: new TrustListSnapshots({
        bus,
        clock,
        logger,
        cache: verificationCache,
        timeoutMs: 2000,
        refreshMs: 3_600_000,
      }),
      statusLists: createStatusListChecker(),
      verificationCache,
      loadTrustStore: createTrustStoreLoader({ db, trustedIssuers: [] }),
      sessionLimits: GENEROUS_LIMITS,
      presentationData: { ttlSeconds: 86_400, readGraceSeconds: 60 },
      kbMaxAgeSeconds: 300,
      clockSkewSeconds: 60,
      webhookTargets: { allowHttp: true, denyPrivateAddresses: false },
      wakeDeliveries: () => void (deps.wakes += 1),
      wakes: 0,
    };
    const desk = (await createVerifier(deps, { orgId: ORG, verifierId: 'desk' })).verifierId;
    const issuer = await createIssuer('Use Case Issuer');
    await createTrustAnchor(deps, { orgId: ORG, body: { certificatePem: issuer.ca.pem } });
    return { deps, registry, events, desk, issuer };
  },
);

/** A session of ORG's verifier (`desk` unless given) asking for the PID (SD-JWT VC), created through its use case. */
export async function createPidSession(
  world: UseCaseWorld,
  body: Partial<CreatePresentationBody> = {},
  verifierId = world.desk,
) {
  const created = await createPresentationSession(world.deps, {
    orgId: ORG,
    verifierId,
    body: { dcql: sdJwtQuery(), responseMode: 'direct_post', ...body } as CreatePresentationBody,
  });
  return created.session;
}

/** A session as its create use case stored it. */
export type CreatedSession = Awaited<ReturnType<typeof createPidSession>>;

/** What a wallet reads from a fetched request object: the facts a presentation is bound to. */
export function factsOf(requestObject: string): RequestFacts & { state?: string; payload: JWTPayload } {
  const payload = decodeJwt(requestObject);
  return {
    clientId: String(payload.client_id),
    nonce: String(payload.nonce),
    ...(typeof payload.response_uri === 'string' ? { responseUri: payload.response_uri } : {}),
    responseMode: String(payload.response_mode),
    ...(typeof payload.state === 'string' ? { state: payload.state } : {}),
    payload,
  };
}

/** A PID of the world's issuer presented (given and family name) for the request `facts` describe. */
export async function presentPidFor(
  world: UseCaseWorld,
  facts: RequestFacts,
  options: { origin?: string; holder?: Holder } = {},
): Promise<string> {
  const holder = options.holder ?? (await newHolder());
  return presentPid(await issuePid(world.issuer, holder), holder, facts, {
    ...(options.origin ? { origin: options.origin } : {}),
  });
}

/** A redirect session answered by a wallet through the use cases: the request object fetched, a PID presented. */
export async function verifiedPidSession(
  world: UseCaseWorld,
  body: Partial<CreatePresentationBody> = {},
  verifierId = world.desk,
): Promise<CreatedSession> {
  const session = await createPidSession(world, body, verifierId);
  const facts = factsOf(
    valueOf(await fetchRequestObject(world.deps, { authorizationRequestId: session.authorizationRequestId })),
  );
  const vpToken = JSON.stringify({ pid: [await presentPidFor(world, facts)] });
  valueOf(
    await receiveWalletResponse(world.deps, {
      authorizationRequestId: session.authorizationRequestId,
      fields: { vp_token: vpToken, state: facts.state },
    }),
  );
  return session;
}

/** The value of a wallet-facing outcome that must have succeeded (the refusal is the failure message). */
export function valueOf<T>(outcome: WalletOutcome<T>): T {
  if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome.refusal)}`);
  return outcome.value;
}
