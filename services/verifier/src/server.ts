import {
  type Clock,
  createLogger,
  createTokenVerifier,
  ensureDevSecret,
  holdStartUntil,
  type InProcessHub,
  type Logger,
  resolveOidcSettings,
  type RunningService,
  type ServiceDefinition,
  startService,
} from '@tessera/service-kit';
import { buildApp } from './app.js';
import {
  DEFAULT_METRICS_PORT,
  loadVerifierConfig,
  platformCaPemOf,
  previousKeyEncryptionKeysOf,
  publicBaseUrlOf,
  SERVICE_NAME,
  type VerifierConfig,
} from './config.js';
import { generateKeyEncryptionKey, KeyEncryptionKey } from './crypto/key-encryption.js';
import { MIGRATIONS_FOLDER } from './db/migrations-folder.js';
import { schema } from './db/schema.js';
import { loadRegistrarAnchors } from './use-cases/load-registrar-anchors.js';
import { loadTrustedIssuers } from './use-cases/load-trusted-issuers.js';
import { openKeyStore, verifyKeyEncryptionKey } from './use-cases/open-key-store.js';
import { describeUnopenedValues, resealSealedValues } from './use-cases/reseal-sealed-values.js';
import { reissuePlatformLeaves } from './use-cases/reissue-platform-leaves.js';
import { reissuePlatformReaderLeaves } from './use-cases/reissue-platform-reader-leaves.js';

export type { RunningService };

/** While the start is held for values its keys do not open, how often they are counted again (another replica may re-seal them). */
const SEALED_VALUES_RECHECK_MS = 10_000;

/**
 * Opens the database (migrating when configured) and the bus, checks the
 * KEY_ENCRYPTION_KEY, loads the platform CA and brings its leaves up to date,
 * builds the app and listens.
 * Used by `main.ts` and by the one-process launcher of `npm start` (which passes its `hub`).
 */
export async function startVerifier(
  config: VerifierConfig,
  logger: Logger = createLogger({ name: SERVICE_NAME, level: config.LOG_LEVEL }),
  options: { hub?: InProcessHub } = {},
): Promise<RunningService> {
  const keyMaterial =
    config.KEY_ENCRYPTION_KEY ??
    (config.NODE_ENV === 'development'
      ? ensureDevSecret(config.DATA_DIR, 'KEY_ENCRYPTION_KEY', generateKeyEncryptionKey)
      : undefined);
  if (!keyMaterial) throw new Error('KEY_ENCRYPTION_KEY is required outside development mode');
  const keyEncryptionKey = new KeyEncryptionKey(keyMaterial, previousKeyEncryptionKeysOf(config));
  // The one clock of the process: every use case and state object reads the time from it.
  const clock: Clock = () => new Date();
  // Before any connection is opened: a bad bundle stops the start with one line.
  const trustedIssuers = loadTrustedIssuers(config.TRUSTED_ISSUERS_FILE);
  const registrarAnchors = loadRegistrarAnchors(config.REGISTRAR_TRUST_ANCHORS_FILE);
  return startService({
    name: SERVICE_NAME,
    config,
    defaultMetricsPort: DEFAULT_METRICS_PORT,
    logger,
    build: async ({ openDatabase, connectBus, metrics }) => {
      const database = await openDatabase({
        service: SERVICE_NAME,
        config,
        schema,
        migrationsFolder: MIGRATIONS_FOLDER,
        logger,
      });
      const keys = { db: database.db, keyEncryptionKey };
      await verifyKeyEncryptionKey(keys);
      // Every sealed value under the current key before anything uses one; a value no configured
      // key opens holds the start (health 200, readiness 503 naming kinds and counts) until one does.
      await holdStartUntil({
        service: SERVICE_NAME,
        logger,
        listenOn: config,
        database,
        notReadyMessage: 'The verifier is not ready yet; try again later.',
        recheckMs: SEALED_VALUES_RECHECK_MS,
        check: async () => {
          const report = await resealSealedValues(keys);
          if (Object.keys(report.resealed).length > 0)
            logger.info({ resealed: report.resealed }, 'sealed values moved onto the current KEY_ENCRYPTION_KEY');
          const unopened = describeUnopenedValues(report, keyEncryptionKey.hasPreviousKeys);
          return unopened ? { ready: false, check: 'keys', ...unopened } : { ready: true };
        },
      });
      const platformCa = await openKeyStore(
        { db: database.db, keyEncryptionKey, clock },
        { configured: platformCaPemOf(config) },
      );
      // Leaves after their CA: a re-issued or replaced CA means its leaves are re-issued too.
      const leafIssuance = { ca: platformCa, host: new URL(publicBaseUrlOf(config)).hostname };
      await reissuePlatformLeaves({ db: database.db, logger, clock }, leafIssuance);
      await reissuePlatformReaderLeaves({ db: database.db, logger, clock }, leafIssuance);
      const bus = await connectBus(config, {
        name: SERVICE_NAME,
        logger,
        ...(options.hub ? { hub: options.hub } : {}),
      });
      const verifyToken = createTokenVerifier(await resolveOidcSettings(config));
      return buildApp({
        config,
        database,
        bus,
        verifyToken,
        logger,
        keyEncryptionKey,
        platformCa,
        clock,
        trustedIssuers,
        registrarAnchors,
        metrics,
      });
    },
  });
}

/** This service as `runServiceMain` runs it (`main.ts`, and `npm start` for all three in one process). */
export const verifierService: ServiceDefinition<VerifierConfig> = {
  name: SERVICE_NAME,
  loadConfig: loadVerifierConfig,
  start: startVerifier,
};
