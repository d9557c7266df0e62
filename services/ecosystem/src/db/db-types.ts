import type { DbOrTx } from '@tessera/service-kit';
import { postgresErrorCode, uniqueViolation, type AppError } from '@tessera/service-kit';
import type { EcosystemDbSchema } from './schema.js';

/** What every query function takes: the database or a transaction of it. */
export type EcoDb = DbOrTx<EcosystemDbSchema>;

/**
 * Runs `work` and turns a unique violation of one of the named indexes into its
 * documented 409, so that the loser of a race gets the same answer as a late caller.
 */
export async function withConflicts<T>(work: () => Promise<T>, conflicts: Record<string, () => AppError>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const constraint = uniqueViolation(error);
    const mapped = constraint !== undefined ? conflicts[constraint] : undefined;
    if (mapped) throw mapped();
    throw error;
  }
}

/** True when `error` is a foreign key violation (23503): a row is still referenced. */
export function isForeignKeyViolation(error: unknown): boolean {
  return postgresErrorCode(error) === '23503';
}
