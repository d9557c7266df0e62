import { ErrorCode } from '@tessera/contracts';
import { AppError } from '../errors.js';

/**
 * The `result`/`outcome` label of a failed operation: the AppError's stable code (a
 * code of the contracts, so the label's values are bounded), or INTERNAL for anything
 * else. Never a message: messages may carry ids.
 */
export function outcomeCodeOf(error: unknown): string {
  return error instanceof AppError ? error.code : ErrorCode.INTERNAL;
}
