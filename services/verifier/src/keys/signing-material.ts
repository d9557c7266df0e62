import type { CryptoKey, JWK } from 'jose';
import { findSigningKey, insertSigningKeyIfAbsent, replaceCertificateChain } from '../db/signing-keys.js';
import type { SigningKeyRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import type { KeyEncryptionKey } from '../crypto/key-encryption.js';
import { issueLeafCertificate, leafNeedsRenewal } from '../crypto/leaf-certificate.js';
import type { PlatformCa } from '../crypto/platform-ca.js';
import { generateSigningKeyPair, importSigningKey, jwsAlgorithmOf, type KeyType } from '../crypto/signing-key.js';

/** AAD of a sealed signing key: binds it to its organisation and key type. */
export function signingKeyContext(orgId: string, keyType: KeyType): string {
  return `signing-key:${orgId}:${keyType}`;
}

export interface SigningMaterial {
  keyType: KeyType;
  alg: 'ES256' | 'EdDSA';
  privateKey: CryptoKey;
  publicJwk: JWK;
  /** x5c: base64 DER, leaf first, without the trust anchor. */
  chain: string[];
  source: 'platform' | 'imported';
}

export interface SigningMaterialOptions {
  db: VerifierDb;
  keyEncryptionKey: KeyEncryptionKey;
  ca: PlatformCa;
  orgId: string;
  keyType: KeyType;
  /** Host of PUBLIC_BASE_URL: SAN dNSName of platform-issued leaves. */
  host: string;
  now: Date;
}

/**
 * The organisation's signing key and certificate chain of `keyType`, created
 * on first use (key sealed with KEY_ENCRYPTION_KEY, leaf issued by the
 * platform CA) and re-certified when the platform leaf is due. A key that
 * cannot be decrypted throws KeyDecryptionError: never a silent new key.
 */
export async function loadSigningMaterial(options: SigningMaterialOptions): Promise<SigningMaterial> {
  const { db, orgId, keyType, now } = options;
  let row = await findSigningKey(db, { orgId, keyType });
  if (!row) {
    const { publicJwk, privateJwk } = await generateSigningKeyPair(keyType);
    const chain = [await issueLeafCertificate({ ca: options.ca, publicJwk, keyType, host: options.host, orgId, now })];
    await insertSigningKeyIfAbsent(db, {
      orgId,
      keyType,
      publicJwk: publicJwk as Record<string, unknown>,
      encryptedPrivateKey: options.keyEncryptionKey.seal(JSON.stringify(privateJwk), signingKeyContext(orgId, keyType)),
      certificateChain: chain,
      source: 'platform',
      now,
    });
    row = await findSigningKey(db, { orgId, keyType });
    if (!row) throw new Error(`signing key ${keyType} of ${orgId} could not be stored`);
  }
  const privateJwk = JSON.parse(options.keyEncryptionKey.open(row.encryptedPrivateKey, signingKeyContext(orgId, keyType))) as JWK;
  const chain = row.source === 'platform' ? await currentPlatformChain(options, row) : (row.certificateChain ?? []);
  return {
    keyType,
    alg: jwsAlgorithmOf(keyType),
    privateKey: await importSigningKey(privateJwk, keyType),
    publicJwk: row.publicJwk as JWK,
    chain,
    source: row.source === 'imported' ? 'imported' : 'platform',
  };
}

/** The platform-issued chain, replaced when it expires soon, names another host, or the CA changed. */
async function currentPlatformChain(options: SigningMaterialOptions, row: SigningKeyRow): Promise<string[]> {
  const chain = row.certificateChain ?? [];
  if (!(await leafNeedsRenewal({ chain, ca: options.ca, host: options.host, now: options.now }))) return chain;
  const renewed = [await issueLeafCertificate({ ca: options.ca, publicJwk: row.publicJwk as JWK, keyType: options.keyType, host: options.host, orgId: options.orgId, now: options.now })];
  // When another replica renewed first, our leaf is still a valid certificate of this key: use it for this request.
  await replaceCertificateChain(options.db, { orgId: options.orgId, keyType: options.keyType, expectedUpdatedAt: row.updatedAt, certificateChain: renewed, now: options.now });
  return renewed;
}
