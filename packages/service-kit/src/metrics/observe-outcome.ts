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

export interface ObserveOutcomeOptions {
  /** The label of a success; default `ok`. */
  success?: string;
  /** The label of a failure; default `outcomeCodeOf`. Must answer one of a fixed set of values. */
  failureOf?: (error: unknown) => string;
}

/**
 * Runs `operation` and hands `record` its result label (`success`, or the failure's
 * label) and its duration in seconds; the operation's answer or failure passes
 * through unchanged.
 */
export async function observeOutcome<T>(
  operation: () => Promise<T>,
  record: (result: string, seconds: number) => void,
  options: ObserveOutcomeOptions = {},
): Promise<T> {
  const started = performance.now();
  try {
    const answer = await operation();
    record(options.success ?? 'ok', (performance.now() - started) / 1000);
    return answer;
  } catch (error) {
    record((options.failureOf ?? outcomeCodeOf)(error), (performance.now() - started) / 1000);
    throw error;
  }
}
