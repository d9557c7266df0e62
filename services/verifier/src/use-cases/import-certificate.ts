import { createPrivateKey } from 'node:crypto';
import type { JWK } from 'jose';
import { ErrorCode, type ErrorDetail } from '@tessera/contracts';
import { AppError, badRequest, type Clock } from '@tessera/service-kit';
import { REQUEST_SIGNER } from '../crypto/certificate-purposes.js';
import type { KeyEncryptionKey } from '../crypto/key-encryption.js';
import { pendingSigningKeyContext, signingKeyContext } from '../crypto/sealing-contexts.js';
import { publicJwkOf, samePublicKey, type KeyType } from '../crypto/signing-key.js';
import { subtle, type WebCryptoKey, type x509 } from '../crypto/x509.js';
import { findPendingSigningKey, takePendingSigningKey } from '../db/pending-signing-keys.js';
import { upsertImportedSigningKey } from '../db/signing-keys.js';
import type { VerifierDb } from '../db/types.js';
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
  /** Absent: the leaf must certify the key of the organisation's pending CSR of `keyType`. */
  privateKeyPem?: string;
}

/**
 * Imports an organisation's own CA-issued request-signing chain (VERIFIER.md):
 * leaf first, the leaf's issuer included, leaf not self-signed, the chain valid
 * up to its last certificate by the service's one chain rule
 * (`validateCertificateChain`). A self-signed root at the end is the trust
 * anchor and is kept out of `x5c`. The key is either given with the chain
 * (`privateKeyPem`, matching the leaf) or is the one made for the pending CSR
 * (`POST certificates/{keyType}/csr`): the leaf must certify it (400
 * CERTIFICATE_KEY_MISMATCH otherwise, or when no CSR is pending); the key is
 * then sealed as the signing key and the pending one removed in one
 * transaction. Until a chain is accepted the signer in force stays.
 */
export async function importCertificate(
  deps: ImportCertificateDeps,
  input: ImportCertificateInput,
): Promise<SigningChain> {
  const chain = parseChain(input.certificateChainPem);
  const leaf = chain[0]!;
  const leafJwk = (await subtle.exportKey('jwk', (await leaf.publicKey.export()) as WebCryptoKey)) as JWK;
  const key =
    input.privateKeyPem !== undefined
      ? { privateJwk: givenKey(input.privateKeyPem, input.keyType, leafJwk), pendingKeyId: undefined }
      : await pendingKey(deps, { orgId: input.orgId, keyType: input.keyType, leafJwk });
  const { privateJwk } = key;
  await checkImportedLeaf(chain, (message) => invalid('/certificateChainPem', message));
  const now = deps.clock();
  const x5c = await validateImportedChain({ chain, now, purpose: REQUEST_SIGNER });
  const signingKey = {
    orgId: input.orgId,
    keyType: input.keyType,
    publicJwk: publicJwkOf(privateJwk) as Record<string, unknown>,
    encryptedPrivateKey: deps.keyEncryptionKey.seal(
      JSON.stringify(privateJwk),
      signingKeyContext(input.orgId, input.keyType),
    ),
    certificateChain: x5c,
    now,
  };
  const { pendingKeyId } = key;
  if (pendingKeyId === undefined) {
    await upsertImportedSigningKey(deps.db, { ...signingKey, source: 'imported' });
    return { keyType: input.keyType, source: 'imported', chain: x5c };
  }
  await deps.db.transaction(async (tx) => {
    // Taken only if still pending: a newer CSR (or another import of this chain) wins.
    if (!(await takePendingSigningKey(tx, { orgId: input.orgId, keyId: pendingKeyId })))
      throw keyMismatch(
        `the certificate signing request of ${input.keyType} was replaced while this chain was imported`,
      );
    await upsertImportedSigningKey(tx, { ...signingKey, source: 'csr' });
  });
  return { keyType: input.keyType, source: 'csr', chain: x5c };
}

/** The key given with the chain: a PKCS#8 key of `keyType` that is the leaf's. */
function givenKey(privateKeyPem: string, keyType: KeyType, leafJwk: JWK): JWK {
  const privateJwk = parsePrivateKey(privateKeyPem);
  checkKeyType(privateJwk, keyType);
  if (!samePublicKey(leafJwk, privateJwk))
    throw invalid('/privateKeyPem', 'the private key does not match the leaf certificate (the first certificate)');
  return privateJwk;
}

/** The pending CSR's key, opened, when the leaf certifies it; 400 CERTIFICATE_KEY_MISMATCH otherwise. */
async function pendingKey(
  deps: ImportCertificateDeps,
  input: { orgId: string; keyType: KeyType; leafJwk: JWK },
): Promise<{ privateJwk: JWK; pendingKeyId: string }> {
  const pending = await findPendingSigningKey(deps.db, input);
  if (!pending)
    throw keyMismatch(
      `no certificate signing request of ${input.keyType} is pending: give privateKeyPem with the chain, or make a CSR first (POST certificates/${input.keyType}/csr)`,
    );
  if (!samePublicKey(input.leafJwk, pending.publicJwk as JWK))
    throw keyMismatch(
      `the leaf certificate (the first certificate) does not certify the key of the pending certificate signing request ${pending.keyId}`,
    );
  const privateJwk = JSON.parse(
    deps.keyEncryptionKey.open(
      pending.encryptedPrivateKey,
      pendingSigningKeyContext(input.orgId, input.keyType, pending.keyId),
    ),
  ) as JWK;
  return { privateJwk, pendingKeyId: pending.keyId };
}

function keyMismatch(message: string): AppError {
  return new AppError(400, ErrorCode.CERTIFICATE_KEY_MISMATCH, `The certificate chain is refused: ${message}.`, [
    { path: '/certificateChainPem', message: `/certificateChainPem: ${message}` },
  ]);
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
