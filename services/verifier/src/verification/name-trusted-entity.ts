import type { IssuerTrust } from './issuer-key.js';
import type { ResolvedTrustStore } from './trust-store.js';

/** The entity of an ecosystem's trust list a verified credential was trusted through, as the result names it. */
export interface TrustedEntityNaming {
  trustedEntityId: string;
  trustedEntityName: string;
  trustListSequence: number;
}

/**
 * Names the trusted entity behind the anchor the issuer's chain validated to,
 * so a relying party can audit why the issuer was trusted. When one
 * certificate is listed under several active entities, the one allowing the
 * credential's type is named (type checks ran before: one of them does).
 * Undefined for trust that is not an ecosystem list.
 */
export function nameTrustedEntity(
  trust: ResolvedTrustStore,
  issuerTrust: IssuerTrust,
  credentialType: string | undefined,
): TrustedEntityNaming | undefined {
  if (!trust.trustList || issuerTrust.kind !== 'certificate') return undefined;
  const candidates = trust.trustList.entities.get(issuerTrust.anchorFingerprint) ?? [];
  const entity =
    candidates.find((candidate) => credentialType !== undefined && candidate.credentialTypes.has(credentialType)) ??
    candidates[0];
  if (!entity) return undefined;
  return { trustedEntityId: entity.id, trustedEntityName: entity.name, trustListSequence: trust.trustList.sequence };
}
