import { KEY_TYPES, type KeyType } from '../crypto/signing-key.js';
import { listPendingSigningKeys } from '../db/pending-signing-keys.js';
import type { PendingSigningKeyRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import { getSigningCertificate, type GetSigningCertificateDeps, type SigningChain } from './get-signing-certificate.js';

export interface ListSigningCertificatesDeps extends GetSigningCertificateDeps {
  db: VerifierDb;
}

export interface SigningCertificatesOfKeyType {
  keyType: KeyType;
  /** The signer in force (created on first use, as `GET certificates/{keyType}` does). */
  signer: SigningChain;
  /** The certificate signing request waiting for its chain, if any. */
  pending: PendingSigningKeyRow | null;
}

/** `GET certificates`: for each key type, the signer in force and the pending certificate signing request. */
export async function listSigningCertificates(
  deps: ListSigningCertificatesDeps,
  input: { orgId: string },
): Promise<SigningCertificatesOfKeyType[]> {
  const pending = await listPendingSigningKeys(deps.db, input);
  const entries: SigningCertificatesOfKeyType[] = [];
  for (const keyType of KEY_TYPES) {
    entries.push({
      keyType,
      signer: await getSigningCertificate(deps, { orgId: input.orgId, keyType }),
      pending: pending.find((row) => row.keyType === keyType) ?? null,
    });
  }
  return entries;
}
