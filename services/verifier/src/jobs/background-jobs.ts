import { sessionUpdatedEvent } from '@tessera/contracts';
import { subscribeEvents, type Logger, type MessageBus } from '@tessera/service-kit';
import { webhookTargetPolicyOf, type VerifierConfig } from '../config.js';
import type { KeyEncryptionKey } from '../crypto/key-encryption.js';
import type { VerifierDb } from '../db/types.js';
import type { Clock } from '../domain/clock.js';
import type { VerifierMetrics } from '../metrics/verifier-metrics.js';
import { deliverDueWebhooks } from '../use-cases/deliver-due-webhooks.js';
import { expireDueSessions } from '../use-cases/expire-due-sessions.js';
import { purgePersonalData } from '../use-cases/purge-personal-data.js';
import { createWebhookSender, type WebhookSender } from '../webhooks/create-webhook-sender.js';
import { createPeriodicJob } from './periodic-job.js';

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
 * - the expiry sweeper (`use-cases/expire-due-sessions.ts`) every
 *   SESSION_EXPIRY_SWEEP_MS: sessions nobody reads still expire, publishing
 *   `verifier.v1.session.updated` (server-sent events) and writing webhook events;
 * - the webhook worker (`use-cases/deliver-due-webhooks.ts`) every
 *   WEBHOOK_POLL_INTERVAL_MS, and at once when any replica publishes a session's
 *   end on NATS — the event is published after the outbox row committed, so the
 *   wake finds it. Without NATS the poll alone delivers;
 * - the purge (`use-cases/purge-personal-data.ts`) every PURGE_INTERVAL_SECONDS,
 *   beside the expiry sweeper and on the same runner: presentation data at its
 *   deadlines and sessions past SESSION_RETENTION_DAYS, one replica at a time (an
 *   advisory lock per batch). A run with a backlog left runs again at once.
 */
export function createBackgroundJobs(deps: BackgroundJobsDeps): BackgroundJobs {
  const { config, db, bus, clock, logger, metrics } = deps;
  const sweeper = createPeriodicJob({
    name: 'session expiry sweeper',
    intervalMs: config.SESSION_EXPIRY_SWEEP_MS,
    logger,
    run: async () => metrics.countExpiredSessions(await expireDueSessions({ db, bus, clock })),
  });
  const purge = createPeriodicJob({
    name: 'personal data purge',
    intervalMs: config.PURGE_INTERVAL_SECONDS * 1000,
    logger,
    run: async (signal) => {
      const report = await purgePersonalData({ db, clock, logger }, { retentionDays: config.SESSION_RETENTION_DAYS, signal }).catch((error: unknown) => {
        metrics.countPurgeFailure();
        throw error;
      });
      metrics.countPurge(report);
      return report.more;
    },
  });
  const send =
    deps.sendWebhook ??
    createWebhookSender({ denyPrivateAddresses: webhookTargetPolicyOf(config).denyPrivateAddresses, timeoutMs: config.WEBHOOK_TIMEOUT_MS });
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
          retry: { baseMs: config.WEBHOOK_RETRY_BASE_MS, maxDelayMs: config.WEBHOOK_RETRY_MAX_DELAY_MS, periodMs: config.WEBHOOK_RETRY_PERIOD_MS },
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
      sweeper.start();
      purge.start();
      worker.start();
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
      await Promise.all([sweeper.stop(), purge.stop(), worker.stop()]);
    },
  };
}
