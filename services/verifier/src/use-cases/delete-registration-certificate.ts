import { deleteRegistrationCertificateRow } from '../db/registration-certificates.js';
import { findVerifier } from '../db/verifiers.js';
import { registrationCertificateNotFound, verifierNotFound } from '../domain/errors.js';
import type { RegistrationCertificateDeps, RegistrationCertificateInput } from './get-registration-certificate.js';
import {
  readRegistrationCertificateView,
  type RegistrationCertificateView,
} from './steps/registration-certificate-view.js';

/**
 * `DELETE verifier/{verifierId}/registration-certificate`: the verifier's next sessions carry no
 * `verifier_info` and are not judged; sessions already created keep what they were sent.
 * Answers what was deleted. 404 as for GET.
 */
export async function deleteRegistrationCertificate(
  deps: RegistrationCertificateDeps,
  input: RegistrationCertificateInput,
): Promise<RegistrationCertificateView> {
  const verifier = await findVerifier(deps.db, input);
  if (!verifier) throw verifierNotFound(input.verifierId);
  const row = await deleteRegistrationCertificateRow(deps.db, { orgId: input.orgId, verifierRef: verifier.id });
  if (!row) throw registrationCertificateNotFound(input.verifierId);
  return readRegistrationCertificateView(deps, verifier, row);
}
