import type { RegistrationCertificate } from '@tessera/contracts';
import type { RegistrationCertificateView } from '../use-cases/steps/registration-certificate-view.js';

/** A verifier's registration certificate as the API shows it: what it registered, its status, and the JWT sent. */
export function toRegistrationCertificate(view: RegistrationCertificateView): RegistrationCertificate {
  const { row, summary } = view;
  return {
    verifierId: view.verifierId,
    form: summary.form,
    registrar: summary.registrar,
    relyingParty: summary.relyingParty,
    ...(summary.intermediary ? { intermediary: summary.intermediary } : {}),
    intendedUses: summary.intendedUses,
    notBefore: row.notBefore.toISOString(),
    notAfter: row.notAfter.toISOString(),
    status: view.status,
    boundToAccessCertificate: view.boundToAccessCertificate,
    registrationCertificate: row.jwt,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
