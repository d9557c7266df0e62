import type { TrustAnchor } from '@tessera/contracts';
import type { TrustAnchorRow } from '../db/schema.js';

export function toTrustAnchor(row: TrustAnchorRow): TrustAnchor {
  return {
    id: row.id,
    label: row.label,
    kind: row.kind as TrustAnchor['kind'],
    ...(row.purpose === 'registrar' ? { purpose: 'registrar' as const } : {}),
    subject: row.subject,
    ...(row.notAfter ? { notAfter: row.notAfter.toISOString() } : {}),
    fingerprint: row.fingerprint,
    ...(row.credentialTypes ? { credentialTypes: row.credentialTypes } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}
