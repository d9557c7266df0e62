import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { CertificateKeyType } from '@tessera/contracts';
import { ECDSA_P256, ED25519, subtle, type WebCryptoKey } from './x509.js';

export type KeyType = CertificateKeyType;
export const KEY_TYPES: readonly KeyType[] = ['P256', 'ED25519'];

/** JWS algorithm of each key type: ES256 (HAIP baseline) and EdDSA over Ed25519. */
export function jwsAlgorithmOf(keyType: KeyType): 'ES256' | 'EdDSA' {
  return keyType === 'P256' ? 'ES256' : 'EdDSA';
}

export interface GeneratedKeyPair {
  publicJwk: JWK;
  privateJwk: JWK;
}

/** A fresh request-signing key pair as JWKs (the private one is sealed before it is stored). */
export async function generateSigningKeyPair(keyType: KeyType): Promise<GeneratedKeyPair> {
  const { publicKey, privateKey } = await generateKeyPair(jwsAlgorithmOf(keyType), {
    extractable: true,
    ...(keyType === 'ED25519' ? { crv: 'Ed25519' } : {}),
  });
  return { publicJwk: await exportJWK(publicKey), privateJwk: await exportJWK(privateKey) };
}

export async function importSigningKey(privateJwk: JWK, keyType: KeyType): Promise<CryptoKey> {
  return (await importJWK(privateJwk, jwsAlgorithmOf(keyType))) as CryptoKey;
}

/** The WebCrypto public key of a JWK, as @peculiar/x509 needs it for a certificate. */
export async function webCryptoPublicKey(publicJwk: JWK, keyType: KeyType): Promise<WebCryptoKey> {
  const { kty, crv, x, y } = publicJwk;
  const algorithm = keyType === 'P256' ? ECDSA_P256 : ED25519;
  return subtle.importKey('jwk', { kty, crv, x, ...(y ? { y } : {}) }, algorithm, true, [
    'verify',
  ]) as Promise<WebCryptoKey>;
}

/** The public members of a JWK (drops `d` and anything private). */
export function publicJwkOf(jwk: JWK): JWK {
  const { kty, crv, x, y } = jwk;
  return { kty, crv, x, ...(y ? { y } : {}) } as JWK;
}

/** True when two JWKs name the same public key. */
export function samePublicKey(a: JWK, b: JWK): boolean {
  return a.kty === b.kty && a.crv === b.crv && a.x === b.x && (a.y ?? '') === (b.y ?? '');
}
