import { sessionUpdatedEvent } from '@tessera/contracts';
import { subscribeEvents, type Logger, type MessageBus } from '@tessera/service-kit';
import { webhookTargetPolicyOf, type VerifierConfig } from '../config.js';
import type { KeyEncryptionKey } from '../crypto/key-encryption.js';
import type { VerifierDb } from '../db/types.js';
import type { Clock } from '../domain/clock.js';
import type { VerifierMetrics } from '../metrics/verifier-metrics.js';
import { deliverDueWebhooks } from '../use-cases/deliver-due-webhooks.js';
import { deleteEndedRateLimitWindows } from '../db/rate-limit-windows.js';
import { createWebhookSender, type WebhookSender } from '../webhooks/create-webhook-sender.js';
import { createPeriodicJob } from './periodic-job.js';
import { createSessionLifetimesJob } from './session-lifetimes-job.js';

// Ended windows only cost space (the upsert restarts them): a minute's delay is fine, and a bounded batch keeps each statement short.
const RATE_LIMIT_CLEANUP_INTERVAL_MS = 60_000;
const RATE_LIMIT_CLEANUP_BATCH = 1000;

export interface BackgroundJobsDeps {
  config: VerifierConfig;
  db: VerifierDb;
  bus: MessageBus;
  clock: Clock;
  keyEncryptionKey: KeyEncryptionKey;
  logger: Logger;
  /** How webhooks are POSTed; the guarded sender of the config unless given. */
  sendWebhook?: WebhookSender;
  /** Expired sessions, purged data and webhook attempts are counted here. */
  metrics: Pick<VerifierMetrics, 'countExpiredSessions' | 'countPurge' | 'countPurgeFailure' | 'countWebhookAttempt'>;
}

/** What every replica runs beside serving requests. */
export interface BackgroundJobs {
  start(): void;
  /** Tells the webhook worker deliveries may be due now. */
  wakeDeliveries(): void;
  stop(): Promise<void>;
}

/**
 * The replica's background work, each a periodic job coordinated with the other
 * replicas through PostgreSQL only:
 * - the session lifetimes job (`session-lifetimes-job.ts`): open sessions past their
 *   end expire every SESSION_EXPIRY_SWEEP_MS (sessions nobody reads still publish
 *   `verifier.v1.session.updated` and write webhook events), and every
 *   PURGE_INTERVAL_SECONDS the same run purges presentation data at its deadlines and
 *   sessions past SESSION_RETENTION_DAYS, one replica at a time;
 * - the webhook worker (`use-cases/deliver-due-webhooks.ts`) every
 *   WEBHOOK_POLL_INTERVAL_MS, and at once when any replica publishes a session's
 *   end on NATS — the event is published after the outbox row committed, so the
 *   wake finds it. Without NATS the poll alone delivers;
 * - the rate-limit window cleanup every minute: ended per-address windows, deleted
 *   in batches of RATE_LIMIT_CLEANUP_BATCH (SKIP LOCKED, so replicas share the work).
 */
export function createBackgroundJobs(deps: BackgroundJobsDeps): BackgroundJobs {
  const { config, db, bus, clock, logger, metrics } = deps;
  const lifetimes = createSessionLifetimesJob({
    db,
    bus,
    clock,
    logger,
    metrics,
    expiryIntervalMs: config.SESSION_EXPIRY_SWEEP_MS,
    purgeIntervalMs: config.PURGE_INTERVAL_SECONDS * 1000,
    retentionDays: config.SESSION_RETENTION_DAYS,
  });
  const rateLimitCleanup = createPeriodicJob({
    name: 'rate-limit window cleanup',
    intervalMs: RATE_LIMIT_CLEANUP_INTERVAL_MS,
    logger,
    run: async () =>
      (await deleteEndedRateLimitWindows(db, { limit: RATE_LIMIT_CLEANUP_BATCH })) === RATE_LIMIT_CLEANUP_BATCH,
  });
  const send =
    deps.sendWebhook ??
    createWebhookSender({
      denyPrivateAddresses: webhookTargetPolicyOf(config).denyPrivateAddresses,
      timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    });
  const worker = createPeriodicJob({
    name: 'webhook worker',
    intervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
    logger,
    run: (signal) =>
      deliverDueWebhooks(
        {
          db,
          clock,
          keyEncryptionKey: deps.keyEncryptionKey,
          logger,
          send,
          retry: {
            baseMs: config.WEBHOOK_RETRY_BASE_MS,
            maxDelayMs: config.WEBHOOK_RETRY_MAX_DELAY_MS,
            periodMs: config.WEBHOOK_RETRY_PERIOD_MS,
          },
          // An attempt takes at most its timeout; the rest is room to record it before another replica may take the row.
          claimMs: config.WEBHOOK_TIMEOUT_MS + 60_000,
          batchSize: config.WEBHOOK_CONCURRENCY,
          metrics,
        },
        { signal },
      ),
  });
  let unsubscribe = () => {};
  return {
    start() {
      lifetimes.start();
      worker.start();
      rateLimitCleanup.start();
      unsubscribe = subscribeEvents(bus, sessionUpdatedEvent, {
        logger,
        handler: (event) => {
          if (event.state === 'ResponseVerified' || event.state === 'Error') worker.wake();
        },
      });
    },
    wakeDeliveries: () => worker.wake(),
    async stop() {
      unsubscribe();
      await Promise.all([lifetimes.stop(), worker.stop(), rateLimitCleanup.stop()]);
    },
  };
}
