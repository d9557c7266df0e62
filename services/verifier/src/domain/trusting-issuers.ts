import type { AllowedCredentialType, TrustListEntity } from '@tessera/contracts';

/**
 * The entities of a trust list that grant trust to issuers: role `issuer` and
 * status `active`. Suspended and withdrawn entities, and verifier entities,
 * grant nothing — whatever certificates they list.
 */
export function trustingIssuers(entities: readonly TrustListEntity[]): TrustListEntity[] {
  return entities.filter((entity) => entity.role === 'issuer' && entity.status === 'active');
}

/** The string a credential's type is compared with: an SD-JWT VC `vct` or an mdoc doctype. */
export function credentialTypeName(type: AllowedCredentialType): string {
  return type.format === 'dc+sd-jwt' ? type.vct : type.doctype;
}
