// What the history records of an entity and its certificates (`from`/`to` of its rows;
// README, Trust registry). Plain JSON, so an entry reads the same years later.
import type {
  AllowedCredentialType,
  CertificateKind,
  TrustedEntityRole,
  TrustedEntityStatus,
} from '@tessera/contracts';

export interface CertificateRecord {
  id: string;
  fingerprint: string;
  subject: string;
  kind: CertificateKind;
  ski: string | null;
  aki: string | null;
  notBefore: Date;
  notAfter: Date;
}

export interface EntityRecord {
  name: string;
  role: TrustedEntityRole;
  orgId: string | null;
  informationUri: string | null;
  allowedCredentialTypes: AllowedCredentialType[];
  status: TrustedEntityStatus;
}

/** A certificate as the history names it (its PEM stays in the certificate row, which is never deleted). */
export function recordCertificate(certificate: CertificateRecord): Record<string, unknown> {
  return {
    id: certificate.id,
    fingerprint: certificate.fingerprint,
    subject: certificate.subject,
    kind: certificate.kind,
    ski: certificate.ski,
    aki: certificate.aki,
    notBefore: certificate.notBefore.toISOString(),
    notAfter: certificate.notAfter.toISOString(),
  };
}

/** `to` of a `created` entry: the entity as created, with its certificates. */
export function recordCreatedEntity(entity: EntityRecord, certificates: CertificateRecord[]): Record<string, unknown> {
  return {
    name: entity.name,
    role: entity.role,
    orgId: entity.orgId,
    informationUri: entity.informationUri,
    allowedCredentialTypes: entity.allowedCredentialTypes,
    status: entity.status,
    certificates: certificates.map(recordCertificate),
  };
}
