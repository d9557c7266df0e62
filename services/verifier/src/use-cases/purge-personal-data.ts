import type { Clock, Logger } from '@tessera/service-kit';
import {
  deleteRetiredSessions,
  purgeExpiredClaims,
  purgeReadOnceClaims,
  tryLockPurge,
} from '../db/personal-data-purge.js';
import type { VerifierDb } from '../db/types.js';

export interface PurgePersonalDataDeps {
  db: VerifierDb;
  clock: Clock;
  logger: Logger;
}

export interface PurgePersonalDataInput {
  /** SESSION_RETENTION_DAYS: session records created longer ago are deleted. */
  retentionDays: number;
  /** Rows per statement. */
  batchSize?: number;
  /** Batches per run at most, so a large backlog yields to the next tick (which follows at once). */
  maxBatches?: number;
  signal?: AbortSignal;
}

export interface PurgeReport {
  /** False when another replica held the purge lock: this replica did nothing. */
  ran: boolean;
  /** Results whose read-once claims went (read grace over). */
  readOnceClaims: number;
  /** Results whose every claim went (data lifetime over). */
  expiredClaims: number;
  /** Session records deleted (retention over). */
  sessions: number;
  /** The run stopped at maxBatches with work left. */
  more: boolean;
}

const DAY_MS = 86_400_000;

/**
 * The purge (one run; the session lifetimes job in `jobs/` repeats it every PURGE_INTERVAL_SECONDS on every
 * replica). Each batch is one transaction that first takes the purge's advisory lock
 * (pg_try_advisory_xact_lock): while one replica purges the others skip the run, so
 * there is one runner at a time across replicas and no two deletes race. A batch
 * removes at most `batchSize` rows per kind at their deadlines (domain/presentation-data.ts):
 * read-once claims past the read grace, every claim past the data lifetime, then
 * whole sessions past SESSION_RETENTION_DAYS. Nothing is kept between runs: a replica
 * that stops mid-batch rolls the batch back and the next runner does it again.
 * Logs counts only, never an id or a value.
 */
export async function purgePersonalData(
  deps: PurgePersonalDataDeps,
  input: PurgePersonalDataInput,
): Promise<PurgeReport> {
  const batchSize = input.batchSize ?? 1000;
  const maxBatches = input.maxBatches ?? 20;
  const report: PurgeReport = { ran: false, readOnceClaims: 0, expiredClaims: 0, sessions: 0, more: false };
  for (let batch = 0; batch < maxBatches; batch++) {
    if (input.signal?.aborted) break;
    const now = deps.clock();
    const done = await deps.db.transaction(async (tx) => {
      if (!(await tryLockPurge(tx))) return undefined;
      const readOnceClaims = await purgeReadOnceClaims(tx, { now, limit: batchSize });
      const expiredClaims = await purgeExpiredClaims(tx, { now, limit: batchSize });
      const sessions = await deleteRetiredSessions(tx, {
        createdBefore: new Date(now.getTime() - input.retentionDays * DAY_MS),
        limit: batchSize,
      });
      return { readOnceClaims, expiredClaims, sessions };
    });
    if (!done) break;
    report.ran = true;
    report.readOnceClaims += done.readOnceClaims;
    report.expiredClaims += done.expiredClaims;
    report.sessions += done.sessions;
    const full = done.readOnceClaims === batchSize || done.expiredClaims === batchSize || done.sessions === batchSize;
    if (!full) break;
    report.more = batch === maxBatches - 1;
  }
  if (report.readOnceClaims + report.expiredClaims + report.sessions > 0) {
    deps.logger.info(
      {
        readOnceClaims: report.readOnceClaims,
        expiredClaims: report.expiredClaims,
        sessions: report.sessions,
        more: report.more,
      },
      'personal data purged',
    );
  }
  return report;
}
