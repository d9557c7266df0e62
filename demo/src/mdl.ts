// The demo wallet's ISO mdoc: an mDL for Alex Doe issued by the demo issuer, and its
// answer to an ISO/IEC 18013-7 Annex C request (`org-iso-mdoc`, the protocol Safari
// and Apple Wallet use over the Digital Credentials API). Written with @owf/mdoc,
// panva's `hpke` and @peculiar/x509: nothing shared with the verifier's code.
import { createHash, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import {
  cborDecode,
  cborEncode,
  DeviceRequest,
  DeviceResponse,
  type Document,
  type IssuerSigned,
  QrHandover,
  SessionTranscript,
} from '@owf/mdoc';
import { AEAD_AES_128_GCM, CipherSuite, KDF_HKDF_SHA256, KEM_DHKEM_P256_HKDF_SHA256 } from 'hpke';
import { exportJWK, type JWK } from 'jose';
import type { DemoIssuer } from './issuer.js';
import { mdocContext } from './mdoc-context.js';
import { issueMdl, MDL_DOCTYPE, MDL_NAMESPACE } from './mdoc-issuer.js';
import { presentDocument } from './mdoc-wallet.js';

/** ISO/IEC 18013-5 Annex B: the purpose a reader certificate must carry for the wallet to trust its request. */
const READER_AUTH_EKU = '1.0.18013.5.1.6';

/** What the demo wallet holds besides its SD-JWT VC: the mDL and its device key. */
export interface DemoMdl {
  issuerSigned: IssuerSigned;
  devicePrivateJwk: JWK;
}

/** The demo issuer issues Alex Doe's mDL, its device key fresh. */
export async function issueDemoMdl(issuer: DemoIssuer): Promise<DemoMdl> {
  const device = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const { kty, crv, x, y, d } = await exportJWK(device.privateKey);
  const issuerSigned = await issueMdl(issuer, {
    elements: { given_name: 'Alex', family_name: 'Doe', birth_date: '1990-04-01', age_over_18: true },
    holderPublicJwk: { kty, crv, x, y },
  });
  return { issuerSigned, devicePrivateJwk: { kty, crv, x, y, d } };
}

type HandoverBase = abstract new (structure: unknown) => { structure: unknown };
/** @owf/mdoc 0.6 predates Annex C: its (unexported) Handover class, reached through one it exports, extended with `dcapi`. */
const Handover = Object.getPrototypeOf(QrHandover) as HandoverBase;
class DcApiHandover extends Handover {
  get encodedStructure(): unknown {
    return ['dcapi', this.structure];
  }
  get requiresReaderKey(): boolean {
    return false;
  }
  get requiresDeviceEngagement(): boolean {
    return false;
  }
}

/** The Annex C SessionTranscript as the wallet computes it from the request and the origin its browser reports. */
function annexCTranscript(encryptionInfo: string, origin: string): SessionTranscript {
  const hash = createHash('sha256')
    .update(cborEncode([encryptionInfo, origin]))
    .digest();
  return SessionTranscript.create({ handover: new DcApiHandover(new Uint8Array(hash)) as never });
}

/**
 * The demo wallet's answer to an `org-iso-mdoc` request from `origin`: it checks each
 * ReaderAuth (signature over the transcript of this EncryptionInfo and origin, the
 * reader chain to the platform CA, the reader-authentication purpose), discloses what
 * each mDL DocRequest asks for, signs the DeviceResponse over the same transcript and
 * seals it with HPKE to the request's key. Answers the browser's `DigitalCredential.data`.
 */
export async function answerAnnexCRequest(options: {
  data: { deviceRequest: string; encryptionInfo: string };
  origin: string;
  trustedCaPem: string;
  mdl: DemoMdl;
}): Promise<{ response: string }> {
  const { encryptionInfo } = options.data;
  const [type, parameters] = cborDecode(Buffer.from(encryptionInfo, 'base64url')) as [string, Map<string, unknown>];
  const key = parameters.get('recipientPublicKey') as Map<number, Uint8Array>;
  if (type !== 'dcapi' || !(key instanceof Map)) throw new Error('not an Annex C EncryptionInfo');
  const transcript = annexCTranscript(encryptionInfo, options.origin);
  const deviceRequest = DeviceRequest.decode(Buffer.from(options.data.deviceRequest, 'base64url'));
  const documents: Document[] = [];
  for (const docRequest of deviceRequest.docRequests) {
    if (!docRequest.readerAuth) throw new Error('the request has no reader authentication');
    let verified = true;
    await docRequest.readerAuth.verify(
      {
        readerAuthentication: { sessionTranscript: transcript, itemsRequest: docRequest.itemsRequest },
        verificationCallback: (check) => void (check.status === 'FAILED' && (verified = false)),
      },
      mdocContext,
    );
    if (!verified) throw new Error(`the request is not meant for ${options.origin} (its reader authentication fails)`);
    await checkReader(docRequest.readerAuth.certificateChain, options.trustedCaPem);
    if (docRequest.itemsRequest.docType !== MDL_DOCTYPE) continue;
    const wanted = docRequest.itemsRequest.namespaces.get(MDL_NAMESPACE);
    const items = (options.mdl.issuerSigned.issuerNamespaces?.issuerNamespaces.get(MDL_NAMESPACE) ?? []).filter(
      (item) => wanted?.has(item.elementIdentifier),
    );
    documents.push(
      await presentDocument({
        issuerSigned: options.mdl.issuerSigned,
        holderPrivateJwk: options.mdl.devicePrivateJwk,
        disclosed: new Map([[MDL_NAMESPACE, items]]),
        sessionTranscript: transcript,
      }),
    );
  }
  if (documents.length === 0) throw new Error('the demo wallet holds nothing the request asks for');
  const hpke = new CipherSuite(KEM_DHKEM_P256_HKDF_SHA256, KDF_HKDF_SHA256, AEAD_AES_128_GCM);
  const recipient = await hpke.DeserializePublicKey(new Uint8Array([0x04, ...key.get(-2)!, ...key.get(-3)!]));
  const sealed = await hpke.Seal(recipient, DeviceResponse.createSimple({ documents }).encode(), {
    info: transcript.encode(),
    aad: new Uint8Array(0),
  });
  const response = cborEncode([
    'dcapi',
    new Map([
      ['enc', sealed.encapsulatedSecret],
      ['cipherText', sealed.ciphertext],
    ]),
  ]);
  return { response: Buffer.from(response).toString('base64url') };
}

/** The reader certificate chains to the trusted CA and is for mdoc reader authentication. */
async function checkReader(chain: Uint8Array[], trustedCaPem: string): Promise<void> {
  const certificates = chain.map((der) => new x509.X509Certificate(Buffer.from(der)));
  const leaf = certificates[0];
  if (!leaf?.getExtension(x509.ExtendedKeyUsageExtension)?.usages.map(String).includes(READER_AUTH_EKU))
    throw new Error('the reader certificate is not for mdoc reader authentication');
  const ca = new x509.X509Certificate(trustedCaPem);
  for (const [index, certificate] of certificates.entries()) {
    const issuer = certificates[index + 1] ?? ca;
    if (!(await certificate.verify({ publicKey: issuer.publicKey, date: new Date() })))
      throw new Error('the reader certificate does not chain to the trusted CA');
  }
}
