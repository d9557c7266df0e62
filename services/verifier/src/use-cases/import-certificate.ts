import { createPrivateKey } from 'node:crypto';
import type { JWK } from 'jose';
import type { ErrorDetail } from '@tessera/contracts';
import { badRequest } from '@tessera/service-kit';
import { REQUEST_SIGNER } from '../crypto/certificate-purposes.js';
import type { KeyEncryptionKey } from '../crypto/key-encryption.js';
import { signingKeyContext } from '../crypto/sealing-contexts.js';
import { publicJwkOf, samePublicKey, type KeyType } from '../crypto/signing-key.js';
import { subtle, type WebCryptoKey, type x509 } from '../crypto/x509.js';
import { upsertImportedSigningKey } from '../db/signing-keys.js';
import type { VerifierDb } from '../db/types.js';
import type { Clock } from '../domain/clock.js';
import type { SigningChain } from './get-signing-certificate.js';
import { checkImportedLeaf, parseImportedChain, validateImportedChain } from './steps/imported-chain.js';

export interface ImportCertificateDeps {
  db: VerifierDb;
  keyEncryptionKey: KeyEncryptionKey;
  clock: Clock;
}

export interface ImportCertificateInput {
  orgId: string;
  keyType: KeyType;
  certificateChainPem: string;
  privateKeyPem: string;
}

/**
 * Imports an organisation's own CA-issued request-signing chain and key
 * (VERIFIER.md): leaf first, the leaf's issuer included, key matching the
 * leaf, leaf not self-signed, the chain valid up to its last certificate by
 * the service's one chain rule (`validateCertificateChain`). A self-signed
 * root at the end is the trust anchor and is kept out of `x5c`.
 */
export async function importCertificate(
  deps: ImportCertificateDeps,
  input: ImportCertificateInput,
): Promise<SigningChain> {
  const chain = parseChain(input.certificateChainPem);
  const privateJwk = parsePrivateKey(input.privateKeyPem);
  const leaf = chain[0]!;
  checkKeyType(privateJwk, input.keyType);
  const leafJwk = (await subtle.exportKey('jwk', (await leaf.publicKey.export()) as WebCryptoKey)) as JWK;
  if (!samePublicKey(leafJwk, privateJwk))
    throw invalid('/privateKeyPem', 'the private key does not match the leaf certificate (the first certificate)');
  await checkImportedLeaf(chain, (message) => invalid('/certificateChainPem', message));
  const now = deps.clock();
  const x5c = await validateImportedChain({ chain, now, purpose: REQUEST_SIGNER });
  await upsertImportedSigningKey(deps.db, {
    orgId: input.orgId,
    keyType: input.keyType,
    publicJwk: publicJwkOf(privateJwk) as Record<string, unknown>,
    encryptedPrivateKey: deps.keyEncryptionKey.seal(
      JSON.stringify(privateJwk),
      signingKeyContext(input.orgId, input.keyType),
    ),
    certificateChain: x5c,
    now,
  });
  return { keyType: input.keyType, source: 'imported', chain: x5c };
}

function parseChain(pem: string): x509.X509Certificate[] {
  const chain = parseImportedChain(pem);
  if (!chain)
    throw invalid(
      '/certificateChainPem',
      'must hold one or more PEM certificates (-----BEGIN CERTIFICATE-----), leaf first',
    );
  return chain;
}

function parsePrivateKey(pem: string): JWK {
  try {
    return createPrivateKey({ key: pem, format: 'pem' }).export({ format: 'jwk' }) as JWK;
  } catch {
    throw invalid('/privateKeyPem', 'must be a PEM private key in PKCS#8 form');
  }
}

function checkKeyType(jwk: JWK, keyType: KeyType): void {
  const ok = keyType === 'P256' ? jwk.kty === 'EC' && jwk.crv === 'P-256' : jwk.kty === 'OKP' && jwk.crv === 'Ed25519';
  if (!ok)
    throw invalid(
      '/privateKeyPem',
      keyType === 'P256' ? 'the key must be an EC P-256 key for P256' : 'the key must be an Ed25519 key for ED25519',
    );
}

function invalid(path: string, message: string) {
  const details: ErrorDetail[] = [{ path, message }];
  return badRequest(`The certificate import is invalid: ${message}.`, details);
}
