import { accessCertificateIdentifier } from '../../crypto/access-certificate-identifier.js';
import { parseCertificateDer } from '../../crypto/parsed-certificates.js';
import type { RegistrationCertificateRow, VerifierRow } from '../../db/schema.js';
import { findSigningKey } from '../../db/signing-keys.js';
import type { VerifierDb } from '../../db/types.js';
import type { Clock } from '@tessera/service-kit';
import {
  registrationCertificateStatus,
  type RegistrationCertificateStatus,
  type RegistrationSummary,
} from '../../domain/registration-summary.js';

// Shared step of the registration-certificate use cases: the identifier a registration
// certificate binds to, and the stored certificate as the API shows it.

/**
 * The relying-party identifier of the organisation's P-256 access certificate in force (the
 * leaf's organizationIdentifier, else serialNumber), or undefined when it has none — a platform
 * leaf, or no P-256 key yet. Read, never created: a registration certificate binds to a WRPAC,
 * which only an imported or CSR-certified chain can be.
 */
export async function accessCertificateIdentifierInForce(db: VerifierDb, orgId: string): Promise<string | undefined> {
  const row = await findSigningKey(db, { orgId, keyType: 'P256' });
  const leaf = row?.certificateChain?.[0];
  return leaf ? accessCertificateIdentifier(parseCertificateDer(leaf)) : undefined;
}

/** A stored registration certificate with what is derived at read time. */
export interface RegistrationCertificateView {
  verifierId: string;
  row: RegistrationCertificateRow;
  summary: RegistrationSummary;
  status: RegistrationCertificateStatus;
  /** Whether the P-256 access certificate in force carries the identifier the certificate is bound to. */
  boundToAccessCertificate: boolean;
}

/** The view of `row` now, against the access certificate in force (read here). */
export async function readRegistrationCertificateView(
  deps: { db: VerifierDb; clock: Clock },
  verifier: VerifierRow,
  row: RegistrationCertificateRow,
): Promise<RegistrationCertificateView> {
  return registrationCertificateView(verifier, row, {
    now: deps.clock(),
    identifierInForce: await accessCertificateIdentifierInForce(deps.db, verifier.orgId),
  });
}

export function registrationCertificateView(
  verifier: VerifierRow,
  row: RegistrationCertificateRow,
  options: { now: Date; identifierInForce: string | undefined },
): RegistrationCertificateView {
  return {
    verifierId: verifier.verifierId,
    row,
    summary: row.summary as unknown as RegistrationSummary,
    status: registrationCertificateStatus(row.notAfter, options.now),
    boundToAccessCertificate: options.identifierInForce === row.relyingPartyIdentifier,
  };
}
