import { ErrorCode, STATUS_LIST_MEDIA_TYPES, type ErrorDetail, type StatusListFormat } from '@tessera/contracts';
import { type AppError, badRequest } from '@tessera/service-kit';
import { invalidStatusListJwt } from './status-list-failures.js';

// Failures of a submitted token in either form, as the platform errors they answer.

/** 400 INVALID_STATUS_LIST_JWT or INVALID_STATUS_LIST_CWT: one `details` entry per failed rule. */
export function invalidStatusListToken(format: StatusListFormat, problems: ErrorDetail[]): AppError {
  if (format === 'jwt') return invalidStatusListJwt(problems);
  return badRequest(
    `The status list CWT is invalid: ${problems.map((p) => p.message).join('; ')}.`,
    problems,
    ErrorCode.INVALID_STATUS_LIST_CWT,
  );
}

/** 400 FORMAT_MISMATCH: a list keeps the form it was created in. */
export function formatMismatch(stored: StatusListFormat, sent: StatusListFormat): AppError {
  return badRequest(
    `This list was created as ${STATUS_LIST_MEDIA_TYPES[stored]} and keeps that form: send its update as ${stored}, not ${sent}.`,
    [{ path: `/${sent}`, message: `this list takes ${stored}` }],
    ErrorCode.FORMAT_MISMATCH,
  );
}

/** 400 VALIDATION_FAILED: a write body with neither or both of jwt and cwt. */
export function tokenMissingOrTwice(problems: ErrorDetail[]): AppError {
  return badRequest(`The request is invalid: ${problems.map((p) => p.message).join('; ')}.`, problems);
}
