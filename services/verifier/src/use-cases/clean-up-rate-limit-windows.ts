import { deleteEndedRateLimitWindows } from '../db/rate-limit-windows.js';
import type { VerifierDb } from '../db/types.js';

export interface CleanUpRateLimitWindowsDeps {
  db: VerifierDb;
}

export interface CleanUpRateLimitWindowsInput {
  /** Windows deleted per run at most, so each statement stays short. */
  batchSize: number;
}

/**
 * The per-address rate-limit windows that ended (one run; `jobs/` repeats it on every
 * replica). Ended windows only cost space — the next request restarts its window — so
 * they go in bounded batches, replicas sharing the work (SKIP LOCKED). PostgreSQL's
 * clock decides which windows ended, as it does when counting: no clock here. Answers
 * how many went, and whether the batch was full (more may be left).
 */
export async function cleanUpRateLimitWindows(
  deps: CleanUpRateLimitWindowsDeps,
  input: CleanUpRateLimitWindowsInput,
): Promise<{ deleted: number; more: boolean }> {
  const deleted = await deleteEndedRateLimitWindows(deps.db, { limit: input.batchSize });
  return { deleted, more: deleted === input.batchSize };
}
