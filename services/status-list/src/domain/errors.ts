// Refusals that several status list operations decide, each with its stable code and
// a sentence a person can act on (STATUS-LIST.md). A refusal only one use case makes
// lives in that use case.
import { ErrorCode, type ErrorDetail, type StatusListFormat } from '@tessera/contracts';
import { AppError, badRequest, notFound } from '@tessera/service-kit';

/** 400 INVALID_STATUS_LIST_JWT: one `details` entry per failed rule (create and update). */
export function invalidStatusListJwt(problems: ErrorDetail[]): AppError {
  return badRequest(
    `The status list JWT is invalid: ${problems.map((p) => p.message).join('; ')}.`,
    problems,
    ErrorCode.INVALID_STATUS_LIST_JWT,
  );
}

/** 400 INVALID_STATUS_LIST_JWT or INVALID_STATUS_LIST_CWT: one `details` entry per failed rule (create and update). */
export function invalidStatusListToken(format: StatusListFormat, problems: ErrorDetail[]): AppError {
  if (format === 'jwt') return invalidStatusListJwt(problems);
  return badRequest(
    `The status list CWT is invalid: ${problems.map((p) => p.message).join('; ')}.`,
    problems,
    ErrorCode.INVALID_STATUS_LIST_CWT,
  );
}

/** 400 VALIDATION_FAILED: a write body with neither or both of jwt and cwt (create and update). */
export function tokenMissingOrTwice(problems: ErrorDetail[]): AppError {
  return badRequest(`The request is invalid: ${problems.map((p) => p.message).join('; ')}.`, problems);
}

/** 404 for an unknown list, and for a path id that is not a UUID v4 (it names no list either). */
export function statusListNotFound(listId: string): AppError {
  return notFound(`No status list ${listId.slice(0, 100)}.`);
}

/** 501 HISTORY_NOT_SUPPORTED: STATUS_LIST_HISTORY_DAYS is 0, so no history is kept (`?time=`, `/versions`). */
export function historyNotSupported(): AppError {
  return new AppError(
    501,
    ErrorCode.HISTORY_NOT_SUPPORTED,
    'This server keeps no history of status lists: omit the time parameter, and read the list itself.',
  );
}
