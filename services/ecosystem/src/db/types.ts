import { postgresErrorCode, uniqueViolation, type DbOrTx } from '@tessera/service-kit';
import type { EcosystemDbSchema } from './schema.js';

/** What every query function takes: the database or a transaction of it. */
export type EcosystemDb = DbOrTx<EcosystemDbSchema>;

/** A write refused by a unique index or a foreign key, named for the use case to decide what it means. */
export interface Conflict<Name extends string> {
  conflict: Name;
}

export function isConflict<T extends object, Name extends string>(value: T | Conflict<Name>): value is Conflict<Name> {
  return 'conflict' in value;
}

/**
 * Runs one write and returns a unique violation of one of the named indexes as
 * `{ conflict }`, so that the loser of a race gets the same answer as a late caller.
 * Inside a transaction the statement has failed: the caller must end the transaction
 * (throw) rather than run more statements in it.
 */
export async function returnUniqueConflicts<T extends object, Name extends string>(
  work: () => Promise<T>,
  indexes: Record<string, Name>,
): Promise<T | Conflict<Name>> {
  try {
    return await work();
  } catch (error) {
    const index = uniqueViolation(error);
    const name = index !== undefined ? indexes[index] : undefined;
    if (name) return { conflict: name };
    throw error;
  }
}

/** True when `error` is a foreign key violation (23503): a row is still referenced. */
export function isForeignKeyViolation(error: unknown): boolean {
  return postgresErrorCode(error) === '23503';
}
