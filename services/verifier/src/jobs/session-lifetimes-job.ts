import type { Clock, Logger, MessageBus } from '@tessera/service-kit';
import type { VerifierDb } from '../db/types.js';
import type { VerifierMetrics } from '../metrics/verifier-metrics.js';
import { expireDueSessions } from '../use-cases/expire-due-sessions.js';
import { purgePersonalData } from '../use-cases/purge-personal-data.js';
import { createPeriodicJob, type PeriodicJob } from './periodic-job.js';

export interface SessionLifetimesJobDeps {
  db: VerifierDb;
  bus: MessageBus;
  clock: Clock;
  logger: Logger;
  /** Where expiries and purged rows are counted (no ids, no values). */
  metrics: Pick<VerifierMetrics, 'countExpiredSessions' | 'countPurge' | 'countPurgeFailure'>;
  /** SESSION_EXPIRY_SWEEP_MS: how often open sessions past their end are expired. */
  expiryIntervalMs: number;
  /** PURGE_INTERVAL_SECONDS × 1000: how often presentation data and retired sessions are purged. */
  purgeIntervalMs: number;
  /** SESSION_RETENTION_DAYS. */
  retentionDays: number;
}

/**
 * Every lifetime a session has, enforced by one job per replica (issue 15: "expiry of
 * open sessions goes through the same job"). Each run expires open sessions past
 * their end (`expire-due-sessions.ts`, shared across replicas by SKIP LOCKED); every
 * `purgeIntervalMs` the same run then purges presentation data at its deadlines and
 * sessions past retention (`purge-personal-data.ts`, one replica at a time by its
 * advisory lock). Expiry runs on the shorter interval because its events feed
 * server-sent events and webhooks, which a minute's delay would hurt; the purge's
 * deadlines are applied at read time anyway, so its interval only bounds how long
 * due data stays on disk. The purge's schedule follows the timers' (real) time, not
 * the service clock, and starts due: a replica purges at its start, so a restart
 * never postpones a backlog. A purge run with work left is followed at once.
 */
export function createSessionLifetimesJob(deps: SessionLifetimesJobDeps): PeriodicJob {
  const { db, bus, clock, logger, metrics } = deps;
  let purgeDueAt = 0;
  return createPeriodicJob({
    name: 'session lifetimes',
    intervalMs: deps.expiryIntervalMs,
    logger,
    run: async (signal) => {
      metrics.countExpiredSessions(await expireDueSessions({ db, bus, clock }));
      if (signal.aborted || Date.now() < purgeDueAt) return false;
      const report = await purgePersonalData(
        { db, clock, logger },
        { retentionDays: deps.retentionDays, signal },
      ).catch((error: unknown) => {
        metrics.countPurgeFailure();
        throw error;
      });
      metrics.countPurge(report);
      purgeDueAt = report.more ? 0 : Date.now() + deps.purgeIntervalMs;
      return report.more;
    },
  });
}
