import type { AccessCertificateSubject, PendingCertificateSigningRequest } from '@tessera/contracts';
import type { PendingSigningKeyRow } from '../db/schema.js';

/** A pending CSR as the API shows it: the request and what it asks for, never the key. */
export function toPendingCertificateSigningRequest(row: PendingSigningKeyRow): PendingCertificateSigningRequest {
  const request = row.request as { subject: AccessCertificateSubject; sanDns?: string[]; sanUri?: string[] };
  return {
    keyId: row.keyId,
    keyType: row.keyType as PendingCertificateSigningRequest['keyType'],
    csrPem: row.csrPem,
    subject: request.subject,
    ...(request.sanDns ? { sanDns: request.sanDns } : {}),
    ...(request.sanUri ? { sanUri: request.sanUri } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}
