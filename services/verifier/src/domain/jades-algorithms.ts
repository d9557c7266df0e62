/**
 * Signature algorithms of JAdES B-B (ETSI TS 119 182-1 clause 5.1.2), which registration
 * certificates use (ETSI TS 119 475 GEN-5.2.1-04): ECDSA, RSASSA-PSS and RSASSA-PKCS1-v1_5 with
 * SHA-2. TS 119 475 V1.2.1 adds EdDSA.
 */
export const JADES_ALGORITHMS = [
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
] as const;

export const JADES_ALGORITHMS_WITH_EDDSA = [...JADES_ALGORITHMS, 'EdDSA'] as const;
