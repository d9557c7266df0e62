import type {
  EcosystemTrustPolicy,
  TrustedEntity,
  TrustedEntityCertificate,
  TrustedEntityHistoryEntry,
  TrustListVisibility,
} from '@tessera/contracts';
import type { EcosystemRow, TrustedEntityCertificateRow, TrustedEntityHistoryRow } from '../db/schema.js';
import type { TrustedEntityView } from '../use-cases/create-trusted-entity.js';

export function presentTrustedEntity(view: TrustedEntityView): TrustedEntity {
  const { entity } = view;
  return {
    id: entity.id,
    ecosystemId: entity.ecosystemId,
    name: entity.name,
    role: entity.role,
    orgId: entity.orgId,
    informationUri: entity.informationUri,
    allowedCredentialTypes: entity.allowedCredentialTypes,
    status: entity.status,
    statusReason: entity.statusReason,
    statusChangedAt: entity.statusChangedAt.toISOString(),
    // The order of the signed list: oldest first, then by fingerprint.
    certificates: [...view.certificates]
      .sort((a, b) => a.addedAt.getTime() - b.addedAt.getTime() || a.fingerprint.localeCompare(b.fingerprint))
      .map(presentCertificate),
    createdBy: entity.createdBy,
    createDateTime: entity.createdAt.toISOString(),
    lastChangedDateTime: entity.updatedAt.toISOString(),
  };
}

function presentCertificate(row: TrustedEntityCertificateRow): TrustedEntityCertificate {
  return {
    id: row.id,
    fingerprint: row.fingerprint,
    subject: row.subject,
    ski: row.ski,
    aki: row.aki,
    notBefore: row.notBefore.toISOString(),
    notAfter: row.notAfter.toISOString(),
    kind: row.kind,
    pem: row.pem,
    addedAt: row.addedAt.toISOString(),
  };
}

export function presentHistoryEntry(row: TrustedEntityHistoryRow): TrustedEntityHistoryEntry {
  return {
    id: row.id,
    sequence: row.sequence,
    change: row.change,
    from: (row.from as Record<string, unknown> | null) ?? null,
    to: (row.to as Record<string, unknown> | null) ?? null,
    reason: row.reason,
    actor: row.actor,
    at: row.at.toISOString(),
  };
}

export function presentTrustPolicy(ecosystem: EcosystemRow): EcosystemTrustPolicy {
  return { ecosystemId: ecosystem.id, policy: ecosystem.trustPolicy };
}

export function presentTrustListVisibility(ecosystem: EcosystemRow): TrustListVisibility {
  return { ecosystemId: ecosystem.id, public: ecosystem.trustListPublic };
}
