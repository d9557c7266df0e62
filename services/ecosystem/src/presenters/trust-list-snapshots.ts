import type { TrustListSnapshot } from '@tessera/contracts';
import type { TrustListSnapshotResult } from '../use-cases/get-trust-list-snapshot.js';

/** The reply of `ecosystem.v1.trust-list.get`: entities in the contract's shape (the list's extra fields dropped). */
export function presentTrustListSnapshot(snapshot: TrustListSnapshotResult): TrustListSnapshot {
  return {
    ecosystemId: snapshot.ecosystemId,
    sequence: snapshot.sequence,
    nextUpdate: snapshot.nextUpdate.toISOString(),
    ...(snapshot.entities
      ? {
          entities: snapshot.entities.map((entity) => ({
            id: entity.id,
            name: entity.name,
            role: entity.role,
            orgId: entity.orgId,
            status: entity.status,
            allowedCredentialTypes: entity.allowedCredentialTypes,
            certificates: entity.certificates.map(({ id, fingerprint, kind, ski, aki, notBefore, notAfter, pem }) => ({
              id,
              fingerprint,
              kind,
              ski,
              aki,
              notBefore,
              notAfter,
              pem,
            })),
          })),
        }
      : {}),
  };
}
