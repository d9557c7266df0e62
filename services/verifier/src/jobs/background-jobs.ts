import type { Logger } from '@tessera/service-kit';
import { deliverDueWebhooks, type DeliverDueWebhooksDeps } from '../use-cases/deliver-due-webhooks.js';
import {
  warnExpiringRegistrationCertificates,
  type WarnExpiringRegistrationCertificatesDeps,
} from '../use-cases/warn-expiring-registration-certificates.js';
import {
  followTrustListsOfOpenSessions,
  type FollowTrustListsOfOpenSessionsDeps,
} from '../use-cases/follow-trust-lists-of-open-sessions.js';
import { createPeriodicJob } from './periodic-job.js';
import { createSessionLifetimesJob, type SessionLifetimesJobDeps } from './session-lifetimes-job.js';

// A day's notice leaves room for a run every few minutes; the gauge is as fresh as the last run.
const REGISTRATION_EXPIRY_INTERVAL_MS = 300_000;

/** What each job's use case takes, and how often it runs: `buildApp` hands each its own. */
export interface BackgroundJobsDeps {
  logger: Logger;
  /** The session lifetimes job: expiry of open sessions and the personal-data purge, with their intervals. */
  lifetimes: SessionLifetimesJobDeps;
  /**
   * The webhook worker: its use case's deps (its slots wake it as they free), how often it
   * polls while a delivery is pending (WEBHOOK_POLL_INTERVAL_MS) and while none is
   * (WEBHOOK_IDLE_POLL_INTERVAL_MS), and `listen`, which calls its argument whenever a
   * delivery is written or made pending on any replica, and whenever listening (re)starts
   * (notices sent while it was not listening are lost); it answers how to stop.
   */
  webhooks: {
    deliveries: DeliverDueWebhooksDeps;
    pollIntervalMs: number;
    idlePollIntervalMs: number;
    listen: (onNotice: () => void) => Promise<() => Promise<void>>;
  };
  /** The registration certificates' expiry: a warning a day ahead, once, and the gauge. */
  registrationCertificateExpiry: WarnExpiringRegistrationCertificatesDeps;
  /** Run once at start: the trust lists of open sessions. */
  trustListsOfOpenSessions: FollowTrustListsOfOpenSessionsDeps;
}

/** What every replica runs beside serving requests. */
export interface BackgroundJobs {
  start(): void;
  /** Tells the webhook worker deliveries may be due now (a redelivery, a freed slot). */
  wakeDeliveries(): void;
  stop(): Promise<void>;
}

/**
 * The replica's background work, each a periodic job coordinated with the other
 * replicas through PostgreSQL only, each calling one use case:
 * - the session lifetimes job (`session-lifetimes-job.ts`): open sessions past their
 *   end expire every SESSION_EXPIRY_SWEEP_MS (sessions nobody reads still publish
 *   `verifier.v1.session.updated` and write webhook events), and every
 *   PURGE_INTERVAL_SECONDS the same run purges presentation data at its deadlines and
 *   sessions past SESSION_RETENTION_DAYS, one replica at a time;
 * - the webhook worker (`use-cases/deliver-due-webhooks.ts`): at once when a delivery
 *   is written or made pending on any replica (PostgreSQL notifies as the writing
 *   transaction commits, so the run finds it), whenever one of its slots frees, and on a
 *   redelivery (`wakeDeliveries`); every WEBHOOK_POLL_INTERVAL_MS while any delivery is
 *   pending (retries come due, claims of a stopped replica lapse, caps free up); while
 *   none is, it issues no statement but every WEBHOOK_IDLE_POLL_INTERVAL_MS (a safety
 *   net) — a whole verification without webhooks costs it nothing. Until its LISTEN is
 *   up it polls as though deliveries were pending;
 * - the registration certificates' expiry every five minutes: each certificate ending
 *   within a day logged once (claimed by one replica), the expiring/expired gauge set;
 * - once, at start, in the background: the trust lists of open sessions
 *   (`use-cases/follow-trust-lists-of-open-sessions.ts`).
 */
export function createBackgroundJobs(deps: BackgroundJobsDeps): BackgroundJobs {
  const { logger } = deps;
  const lifetimes = createSessionLifetimesJob(deps.lifetimes);
  // Idle runs are trusted only while notices can wake the worker.
  let listening = false;
  let stopListening: (() => Promise<void>) | undefined;
  let stopped = false;
  const worker = createPeriodicJob({
    name: 'webhook worker',
    intervalMs: deps.webhooks.pollIntervalMs,
    idleIntervalMs: deps.webhooks.idlePollIntervalMs,
    logger,
    run: async (signal) => {
      const run = await deliverDueWebhooks(deps.webhooks.deliveries, { signal });
      if (run.more) return true;
      return !run.anyPending && listening ? 'idle' : false;
    },
  });
  const registrationExpiry = createPeriodicJob({
    name: 'registration certificate expiry',
    intervalMs: REGISTRATION_EXPIRY_INTERVAL_MS,
    logger,
    run: () => warnExpiringRegistrationCertificates(deps.registrationCertificateExpiry),
  });
  return {
    start() {
      lifetimes.start();
      void deps.webhooks
        .listen(() => {
          listening = true;
          worker.wake();
        })
        .then(
          async (unlisten) => {
            // Stopped while LISTEN was being set up: undo it at once. The database may be
            // closing by then (a replica stopped right after it started), so the undo can
            // fail with the connection: logged, never left as an unhandled rejection.
            if (stopped)
              await unlisten().catch((error: unknown) =>
                logger.warn({ err: error }, 'webhook worker: LISTEN not stopped cleanly'),
              );
            else stopListening = unlisten;
          },
          (error: unknown) =>
            logger.warn({ err: error }, 'webhook worker: not woken by new deliveries; it polls instead'),
        );
      worker.start();
      registrationExpiry.start();
      // A start does not wait for (or fail on) the ecosystem service: a verification that
      // finds no current list fetches it then, or answers 503.
      void followTrustListsOfOpenSessions(deps.trustListsOfOpenSessions).catch((error: unknown) =>
        logger.warn({ err: error }, 'trust lists of open sessions not read at start'),
      );
    },
    wakeDeliveries: () => worker.wake(),
    async stop() {
      stopped = true;
      listening = false;
      await stopListening?.().catch((error: unknown) =>
        logger.warn({ err: error }, 'webhook worker: LISTEN not stopped cleanly'),
      );
      await Promise.all([lifetimes.stop(), worker.stop(), registrationExpiry.stop()]);
      // Deliveries still sending were aborted with the worker's signal: each records its attempt before the database closes.
      await deps.webhooks.deliveries.slots.idle();
    },
  };
}
