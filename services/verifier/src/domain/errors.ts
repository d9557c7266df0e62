import { ErrorCode } from '@tessera/contracts';
import { AppError, notFound } from '@tessera/service-kit';

// The "no such record" refusals several use cases share, with one wording each.
// Another organisation's record reads the same as a missing one (ARCHITECTURE.md).

export function verifierNotFound(verifierId: string): AppError {
  return notFound(`The organisation has no verifier "${verifierId}".`, ErrorCode.VERIFIER_NOT_FOUND);
}

export function verificationTemplateNotFound(): AppError {
  return notFound('The organisation has no such verification template.', ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND);
}

export function registrationCertificateNotFound(verifierId: string): AppError {
  return notFound(
    `Verifier "${verifierId}" has no registration certificate.`,
    ErrorCode.REGISTRATION_CERTIFICATE_NOT_FOUND,
  );
}

export function presentationSessionNotFound(): AppError {
  return notFound('The organisation has no presentation session with this id.', ErrorCode.NOT_FOUND);
}

/** 429 on a management route, with the seconds to wait: the route's `onError` hook sets `Retry-After` from it. */
export class RetryLaterError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, ErrorCode.RATE_LIMITED, message);
    this.name = 'RetryLaterError';
  }
}
