import type { KeyType } from '../crypto/signing-key.js';
import type { LoadSigningMaterial, SigningKeySource } from '../state/signing-material-loader.js';

export interface GetSigningCertificateDeps {
  /** The replica's signing-material loader (creates the key and its platform leaf on first use). */
  loadSigningMaterial: LoadSigningMaterial;
}

export interface GetSigningCertificateInput {
  orgId: string;
  keyType: KeyType;
}

export interface SigningChain {
  keyType: KeyType;
  source: SigningKeySource;
  /** x5c: base64 DER, leaf first. */
  chain: string[];
}

/** The organisation's current request-signing chain of `keyType`, created on first use (never the key). */
export async function getSigningCertificate(
  deps: GetSigningCertificateDeps,
  input: GetSigningCertificateInput,
): Promise<SigningChain> {
  const material = await deps.loadSigningMaterial(input);
  return { keyType: input.keyType, source: material.source, chain: material.chain };
}
