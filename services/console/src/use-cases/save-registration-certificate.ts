import type { RegistrationCertificate } from '@tessera/contracts';
import type { ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface SaveRegistrationCertificateDeps {
  verifier: Pick<VerifierApi, 'putRegistrationCertificate'>;
}

/**
 * The registration certificate the registrar issued for a verifier (ETSI TS 119 475), as
 * the person pasted it: the verifier checks it (registrar trust, signature, schema, validity,
 * the binding to the access certificate in force) before keeping it, and replaces any before.
 */
export function saveRegistrationCertificate(
  deps: SaveRegistrationCertificateDeps,
  input: { token: string; orgId: string; verifierId: string; registrationCertificate: string },
): Promise<ServiceResult<RegistrationCertificate>> {
  return deps.verifier.putRegistrationCertificate(input.token, input.orgId, input.verifierId, {
    registrationCertificate: input.registrationCertificate,
  });
}
