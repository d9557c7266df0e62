import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

export interface EphemeralEncryptionKey {
  /** Goes into the request object's `client_metadata.jwks` (OpenID4VP 1.0 §8.3). */
  publicJwk: JWK;
  /** Sealed with KEY_ENCRYPTION_KEY before it is stored on the session. */
  privateJwk: JWK;
}

/** A per-session ECDH-ES P-256 key pair for encrypted responses (`direct_post.jwt`, `dc_api.jwt`). */
export async function generateEncryptionKey(): Promise<EphemeralEncryptionKey> {
  const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
  const kid = randomBytes(16).toString('base64url');
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'ECDH-ES', use: 'enc' };
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'ECDH-ES', use: 'enc' };
  return { publicJwk, privateJwk };
}
