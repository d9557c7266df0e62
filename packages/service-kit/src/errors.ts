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
export const unauthorized = (message = 'Authentication is required.') => new AppError(401, ErrorCode.UNAUTHORIZED, message);
export const forbidden = (message = 'You are not allowed to do this.', code: string = ErrorCode.FORBIDDEN) =>
  new AppError(403, code, message);
export const notFound = (message = 'Not found.', code: string = ErrorCode.NOT_FOUND) => new AppError(404, code, message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
export const dependencyUnavailable = (message: string, cause?: unknown) =>
  new AppError(503, ErrorCode.DEPENDENCY_UNAVAILABLE, message, undefined, { cause });

/** Postgres and socket errors that mean "the database is unreachable", not "the query was wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH',
  'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED',
  '57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006',
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
    const name = (current as { constraint_name?: unknown; constraint?: unknown }).constraint_name ?? (current as { constraint?: unknown }).constraint;
    if (typeof name === 'string') return name;
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}
