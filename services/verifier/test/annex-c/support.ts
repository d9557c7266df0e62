// Shared set-up of the Annex C tests: the service's own platform CA issues the
// organisation's reader-authentication leaf (as production will), and the
// service's builders make a request the independent holder then checks.
import type { webcrypto } from 'node:crypto';
import { importJWK, type JWK } from 'jose';
import { generateAnnexCEncryptionKey } from '../../src/crypto/annex-c-encryption-key.js';
import { buildDeviceRequest } from '../../src/crypto/annex-c-device-request.js';
import { generatePlatformCa, loadPlatformCa, type PlatformCa } from '../../src/crypto/platform-ca.js';
import { issueReaderAuthLeafCertificate } from '../../src/crypto/reader-auth-leaf-certificate.js';
import { generateSigningKeyPair } from '../../src/crypto/signing-key.js';
import { planDeviceRequest, type PlannedDocRequest } from '../../src/domain/device-request-plan.js';
import { buildAnnexCSessionTranscript } from '../../src/verification/annex-c-session-transcript.js';
import { x509 } from '../verification/support/pki.js';

export const ORIGIN = 'https://rp.example';
export const HOST = 'verifier.tessera.test';
export const MDL_QUERY = {
  combine: 'all',
  credentials: [
    {
      id: 'mdl',
      format: 'mso_mdoc',
      meta: { doctype_value: 'org.iso.18013.5.1.mDL' },
      claims: [
        { path: ['org.iso.18013.5.1', 'family_name'], intent_to_retain: true },
        { path: ['org.iso.18013.5.1', 'given_name'] },
      ],
    },
  ],
};

export interface Reader {
  ca: PlatformCa;
  caDer: Uint8Array;
  privateJwk: JWK;
  chain: Uint8Array[];
}

/** An organisation's P-256 key and its reader leaf under a fresh platform CA. */
export async function createReader(now = new Date()): Promise<Reader> {
  const ca = await loadPlatformCa(await generatePlatformCa({ now }), now);
  const { publicJwk, privateJwk } = await generateSigningKeyPair('P256');
  const leaf = await issueReaderAuthLeafCertificate({ ca, publicJwk, host: HOST, orgId: 'org-1', now });
  return {
    ca,
    caDer: new Uint8Array(ca.certificate.rawData),
    privateJwk,
    chain: [new Uint8Array(Buffer.from(leaf, 'base64'))],
  };
}

export interface Session {
  data: { deviceRequest: string; encryptionInfo: string };
  recipientPrivateJwk: JWK;
  docRequests: PlannedDocRequest[];
}

/** What a create-session call will do for `org-iso-mdoc`: plan, fresh key, transcript, signed DeviceRequest. */
export async function createAnnexCSession(
  reader: Reader,
  query: unknown = MDL_QUERY,
  origin = ORIGIN,
): Promise<Session> {
  const plan = planDeviceRequest(query);
  if (!plan.ok) throw new Error(plan.message);
  const key = await generateAnnexCEncryptionKey();
  const sessionTranscript = buildAnnexCSessionTranscript({ encryptionInfo: key.encryptionInfo, origin });
  const deviceRequest = buildDeviceRequest({
    docRequests: plan.docRequests,
    sessionTranscript,
    readerAuthKey: {
      privateKey: (await importJWK(reader.privateJwk, 'ES256')) as webcrypto.CryptoKey,
      certificateChain: reader.chain,
    },
  });
  return {
    data: { deviceRequest, encryptionInfo: key.encryptionInfo },
    recipientPrivateJwk: key.privateJwk,
    docRequests: plan.docRequests,
  };
}

export { x509 };
