import { ErrorCode } from '@tessera/contracts';
import { AppError, badRequest, notFound } from '@tessera/service-kit';

// Failures of a history request (`?time=`), as the platform errors they answer.

/** 501 HISTORY_NOT_SUPPORTED: STATUS_LIST_HISTORY_DAYS is 0, so no history is kept. */
export function historyNotSupported(): AppError {
  return new AppError(
    501,
    ErrorCode.HISTORY_NOT_SUPPORTED,
    'This server keeps no history of status lists: omit the time parameter.',
  );
}

/** 400 VALIDATION_FAILED: `time` is not a unix timestamp. */
export function invalidHistoryTime(): AppError {
  return badRequest('The time parameter must be a unix timestamp: whole seconds since the epoch, e.g. 1686925000.', [
    { path: '/time', message: 'query parameter /time must be whole seconds since the epoch (decimal digits only)' },
  ]);
}

/** 404 NO_STATUS_AT_TIME: no kept version of the list was valid at that time. */
export function noStatusAtTime(listId: string, time: number): AppError {
  // Dates end at ±8.64e15 ms: a later time is named in seconds only.
  const date = time * 1000 <= 8.64e15 ? ` (${new Date(time * 1000).toISOString()})` : '';
  return notFound(
    `No version of status list ${listId} kept here was valid at ${time}${date}: it was issued later, had expired, or its history was pruned.`,
    ErrorCode.NO_STATUS_AT_TIME,
  );
}
