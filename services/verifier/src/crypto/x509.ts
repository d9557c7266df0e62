// The one configured @peculiar/x509 (Reflect metadata and the WebCrypto provider set
// up once, in the kit), plus the key algorithms the verifier signs with.
export { x509, subtle, ECDSA_P256, type WebCryptoKey, type WebCryptoKeyPair } from '@tessera/service-kit/x509';

export const ED25519 = { name: 'Ed25519' } as const;
