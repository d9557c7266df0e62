import { ErrorCode, type ErrorDetail } from '@tessera/contracts';

/**
 * An error that knows its HTTP status and stable code. Domain and route code throw
 * these; the error handler turns them into the platform error body.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details?: ErrorDetail[], code: string = ErrorCode.VALIDATION_FAILED) =>
  new AppError(400, code, message, details);
export const unauthorized = (message = 'Authentication is required.') =>
  new AppError(401, ErrorCode.UNAUTHORIZED, message);
export const forbidden = (message = 'You are not allowed to do this.', code: string = ErrorCode.FORBIDDEN) =>
  new AppError(403, code, message);
export const notFound = (message = 'Not found.', code: string = ErrorCode.NOT_FOUND) =>
  new AppError(404, code, message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
export const dependencyUnavailable = (message: string, cause?: unknown) =>
  new AppError(503, ErrorCode.DEPENDENCY_UNAVAILABLE, message, undefined, { cause });

/** Postgres and socket errors that mean "the database is unreachable", not "the query was wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/** True when `error` (or one of its causes) says a dependency could not be reached. */
export function isUnavailableError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Postgres SQLSTATE of `error` or of one of its causes (Drizzle wraps driver errors). */
export function postgresErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The constraint a unique violation (23505) names, if it is one. */
export function uniqueViolation(error: unknown): string | undefined {
  if (postgresErrorCode(error) !== '23505') return undefined;
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const name =
      (current as { constraint_name?: unknown; constraint?: unknown }).constraint_name ??
      (current as { constraint?: unknown }).constraint;
    if (typeof name === 'string') return name;
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}

/**
 * SQLSTATEs that mean the client sent a value the database cannot hold (a NUL in
 * text, a number out of range, an over-long string): a 400, never a 500, whatever
 * schema check let it through.
 */
const CLIENT_DATA_CODES: Record<string, string> = {
  '22021': 'text must not contain NUL (\\u0000) or invalid characters',
  '22P05': 'text must not contain NUL (\\u0000) or invalid characters',
  '22001': 'a value is longer than allowed',
  '22003': 'a number is out of range',
  '22P02': 'a value has the wrong format',
  '22007': 'a date or time has the wrong format',
  '22008': 'a date or time is out of range',
};

/** A sentence for a client-data database error, or undefined when `error` is not one. */
export function clientDataProblem(error: unknown): string | undefined {
  const code = postgresErrorCode(error);
  return code ? CLIENT_DATA_CODES[code] : undefined;
}
