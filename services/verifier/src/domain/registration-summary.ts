import type { RegisteredIntendedUse } from './registered-intended-use.js';
import type { RegisteredRelyingParty, RegistrationCertificateForm } from './registration-certificate-claims.js';

/**
 * What a stored registration certificate registered, as kept beside its JWT
 * (`registration_certificates.summary`): read by the API's answer and by every session's judgement.
 */
export interface RegistrationSummary {
  form: RegistrationCertificateForm;
  registrar: { subject: string; name: string; anchorSubject: string };
  relyingParty: RegisteredRelyingParty;
  intermediary?: { identifier: string; name?: string };
  intendedUses: RegisteredIntendedUse[];
}

/** A certificate with less than this left is `expiring` (reported, logged once, counted); it is still sent. */
export const REGISTRATION_EXPIRY_NOTICE_MS = 86_400_000;

export type RegistrationCertificateStatus = 'valid' | 'expiring' | 'expired';

/** `expired` from `notAfter` on: an expired certificate is no longer sent nor judged against. */
export function registrationCertificateStatus(notAfter: Date, now: Date): RegistrationCertificateStatus {
  const left = notAfter.getTime() - now.getTime();
  if (left <= 0) return 'expired';
  return left <= REGISTRATION_EXPIRY_NOTICE_MS ? 'expiring' : 'valid';
}
