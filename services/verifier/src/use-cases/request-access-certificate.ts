import { randomUUID } from 'node:crypto';
import type { CreateCertificateSigningRequestBody } from '@tessera/contracts';
import { badRequest, type Clock } from '@tessera/service-kit';
import { createCertificateSigningRequest } from '../crypto/certificate-signing-request.js';
import type { KeyEncryptionKey } from '../crypto/key-encryption.js';
import { pendingSigningKeyContext } from '../crypto/sealing-contexts.js';
import { generateSigningKeyPair, type KeyType } from '../crypto/signing-key.js';
import { replacePendingSigningKey } from '../db/pending-signing-keys.js';
import type { PendingSigningKeyRow } from '../db/schema.js';
import type { VerifierDb } from '../db/types.js';
import { checkAccessCertificateRequest } from '../domain/access-certificate-subject.js';

export interface RequestAccessCertificateDeps {
  db: VerifierDb;
  keyEncryptionKey: KeyEncryptionKey;
  clock: Clock;
}

export interface RequestAccessCertificateInput {
  orgId: string;
  keyType: KeyType;
  body: CreateCertificateSigningRequestBody;
}

/**
 * `POST certificates/{keyType}/csr`: a new key of `keyType`, made here and sealed with
 * KEY_ENCRYPTION_KEY (bound to the organisation, key type and key id), and a PKCS#10 request for
 * an access certificate with the subject and SANs asked for, signed with it. The key waits for
 * the CA's chain (`PUT certificates/{keyType}` without `privateKeyPem`); the signer in force
 * stays until then. A new request replaces a pending one of the same key type (its key is
 * dropped: a chain for it would be refused). 400 VALIDATION_FAILED names each bad field.
 */
export async function requestAccessCertificate(
  deps: RequestAccessCertificateDeps,
  input: RequestAccessCertificateInput,
): Promise<PendingSigningKeyRow> {
  const { body, orgId, keyType } = input;
  const problems = checkAccessCertificateRequest(body);
  if (problems.length > 0) throw badRequest('The certificate signing request is invalid: see details.', problems);
  const { publicJwk, privateJwk } = await generateSigningKeyPair(keyType);
  const csrPem = await createCertificateSigningRequest({ ...body, keyType, publicJwk, privateJwk });
  const keyId = randomUUID();
  return replacePendingSigningKey(deps.db, {
    keyId,
    orgId,
    keyType,
    publicJwk: publicJwk as Record<string, unknown>,
    encryptedPrivateKey: deps.keyEncryptionKey.seal(
      JSON.stringify(privateJwk),
      pendingSigningKeyContext(orgId, keyType, keyId),
    ),
    request: {
      subject: body.subject,
      ...(body.sanDns ? { sanDns: body.sanDns } : {}),
      ...(body.sanUri ? { sanUri: body.sanUri } : {}),
    },
    csrPem,
    createdAt: deps.clock(),
  });
}
