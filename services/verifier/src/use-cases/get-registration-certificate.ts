import { findRegistrationCertificate } from '../db/registration-certificates.js';
import type { VerifierDb } from '../db/types.js';
import { findVerifier } from '../db/verifiers.js';
import type { Clock } from '@tessera/service-kit';
import { registrationCertificateNotFound, verifierNotFound } from '../domain/errors.js';
import {
  readRegistrationCertificateView,
  type RegistrationCertificateView,
} from './steps/registration-certificate-view.js';

export interface RegistrationCertificateDeps {
  db: VerifierDb;
  clock: Clock;
}

export interface RegistrationCertificateInput {
  orgId: string;
  verifierId: string;
}

/**
 * `GET verifier/{verifierId}/registration-certificate`: what the verifier registered, its
 * status at `now` (`expiring` with less than a day left, `expired` once no longer sent) and
 * whether the access certificate in force still carries the identifier it is bound to.
 * 404 VERIFIER_NOT_FOUND, 404 REGISTRATION_CERTIFICATE_NOT_FOUND.
 */
export async function getRegistrationCertificate(
  deps: RegistrationCertificateDeps,
  input: RegistrationCertificateInput,
): Promise<RegistrationCertificateView> {
  const verifier = await findVerifier(deps.db, input);
  if (!verifier) throw verifierNotFound(input.verifierId);
  const row = await findRegistrationCertificate(deps.db, { orgId: input.orgId, verifierRef: verifier.id });
  if (!row) throw registrationCertificateNotFound(input.verifierId);
  return readRegistrationCertificateView(deps, verifier, row);
}
