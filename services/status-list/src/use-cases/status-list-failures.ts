import { ErrorCode, type ErrorDetail } from '@tessera/contracts';
import { type AppError, badRequest, notFound } from '@tessera/service-kit';

// Failures shared by several status list operations, as the platform errors they answer.

/** 400 INVALID_STATUS_LIST_JWT: one `details` entry per failed rule (create and update). */
export function invalidStatusListJwt(problems: ErrorDetail[]): AppError {
  return badRequest(
    `The status list JWT is invalid: ${problems.map((p) => p.message).join('; ')}.`,
    problems,
    ErrorCode.INVALID_STATUS_LIST_JWT,
  );
}

/** 404 for an unknown list, and for a path id that is not a UUID v4 (it names no list either). */
export function statusListNotFound(listId: string): AppError {
  return notFound(`No status list ${listId.slice(0, 100)}.`);
}
