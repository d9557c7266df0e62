// An ISO/IEC 18013-7 Annex C (`org-iso-mdoc`) wallet for the tests, sharing
// nothing with the service's Annex C code: @owf/mdoc parses the DeviceRequest,
// checks each ReaderAuth and builds the DeviceResponse (the service uses
// @auth0/mdl and cbor-x); panva's `hpke` seals it (the service opens with
// @hpke/core); @peculiar/x509 checks the reader chain. @owf/mdoc 0.6 predates
// Annex C, so its Handover base class is extended here with the `dcapi` handover.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { AEAD_AES_128_GCM, CipherSuite, KDF_HKDF_SHA256, KEM_DHKEM_P256_HKDF_SHA256 } from 'hpke';
import {
  CoseKey,
  DeviceRequest,
  DeviceResponse,
  type Document,
  Header,
  type IssuerNamespaces,
  type IssuerSigned,
  QrHandover,
  SessionTranscript,
  SignatureAlgorithm,
  cborDecode,
  cborEncode,
  type MdocContext,
  type VerificationAssessment,
} from '@owf/mdoc';
import type { JWK } from 'jose';
import { x509 } from '../verification/support/pki.js';
import { mdocContext, signDocument } from '../verification/support/mdoc.js';

/** The reader-authentication purpose (ISO/IEC 18013-5 Annex B). */
const READER_AUTH_EKU = '1.0.18013.5.1.6';
const hpke = new CipherSuite(KEM_DHKEM_P256_HKDF_SHA256, KDF_HKDF_SHA256, AEAD_AES_128_GCM);

type HandoverClass = abstract new (structure: unknown) => { structure: unknown };
/** @owf/mdoc's (unexported) Handover base class, reached through a handover it does export. */
const Handover = Object.getPrototypeOf(QrHandover) as HandoverClass;

/** `["dcapi", SHA-256(CBOR([base64url EncryptionInfo, origin]))]`: the Annex C handover. */
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

/** The wallet's view of the Annex C SessionTranscript, from the request and the origin its platform reports. */
export function holderTranscript(options: { encryptionInfo: string; origin: string }): SessionTranscript {
  const hash = createHash('sha256')
    .update(cborEncode([options.encryptionInfo, options.origin]))
    .digest();
  return SessionTranscript.create({ handover: new DcApiHandover(new Uint8Array(hash)) as never });
}

/** An Annex C request as the browser hands it to the wallet. */
export interface AnnexCRequestData {
  deviceRequest: string;
  encryptionInfo: string;
}

export interface ParsedAnnexCRequest {
  deviceRequest: DeviceRequest;
  docRequests: Array<{ docType: string; nameSpaces: Map<string, Map<string, boolean>>; readerChain: Uint8Array[] }>;
  recipientPublicKey: Uint8Array;
  encryptionInfo: string;
  transcript: SessionTranscript;
}

/** A context that verifies ReaderAuth signatures with node:crypto and the signer certificate's key. */
const verifyingContext: Pick<MdocContext, 'cose' | 'x509'> = {
  cose: {
    ...mdocContext.cose,
    sign1: {
      ...mdocContext.cose.sign1,
      verify: ({ sign1, key }) => {
        const { kty, crv, x, y } = key.jwk as Record<string, string>;
        const publicKey = createPublicKey({ key: { kty, crv, x, y } as never, format: 'jwk' });
        return verify('sha256', sign1.toBeSigned, { key: publicKey, dsaEncoding: 'ieee-p1363' }, sign1.signature);
      },
    },
  },
  x509: {
    ...mdocContext.x509,
    getPublicKey: async ({ certificate }) => {
      const parsed = new x509.X509Certificate(certificate);
      const key = await parsed.publicKey.export();
      const jwk = (await crypto.subtle.exportKey('jwk', key)) as Record<string, unknown>;
      return CoseKey.fromJwk(jwk);
    },
  },
};

/**
 * What a wallet does with an `org-iso-mdoc` request: decode the EncryptionInfo
 * and DeviceRequest, build the transcript from the origin the platform gives
 * it, and verify every ReaderAuth over ReaderAuthentication (signature by the
 * x5chain leaf, chain to `readerAnchors`, the leaf's reader-authentication
 * purpose). Throws when anything does not hold.
 */
export async function parseAnnexCRequest(
  data: AnnexCRequestData,
  options: { origin: string; readerAnchors: Uint8Array[] },
): Promise<ParsedAnnexCRequest> {
  const encryptionInfo = cborDecode(Buffer.from(data.encryptionInfo, 'base64url')) as [string, Map<string, unknown>];
  if (encryptionInfo[0] !== 'dcapi') throw new Error('EncryptionInfo is not of type dcapi');
  const parameters = encryptionInfo[1];
  const nonce = parameters.get('nonce') as Uint8Array;
  if (!(nonce instanceof Uint8Array) || nonce.length < 16) throw new Error('EncryptionInfo nonce under 16 bytes');
  const key = parameters.get('recipientPublicKey') as Map<number, unknown>;
  if (key.get(1) !== 2 || key.get(-1) !== 1) throw new Error('recipientPublicKey is not an EC2 P-256 COSE_Key');
  const recipientPublicKey = new Uint8Array([0x04, ...(key.get(-2) as Uint8Array), ...(key.get(-3) as Uint8Array)]);

  const deviceRequest = DeviceRequest.decode(Buffer.from(data.deviceRequest, 'base64url'));
  if (deviceRequest.version !== '1.0') throw new Error(`DeviceRequest version ${deviceRequest.version}`);
  const transcript = holderTranscript({ encryptionInfo: data.encryptionInfo, origin: options.origin });
  const docRequests: ParsedAnnexCRequest['docRequests'] = [];
  for (const docRequest of deviceRequest.docRequests) {
    const readerAuth = docRequest.readerAuth;
    if (!readerAuth) throw new Error('a DocRequest has no ReaderAuth');
    if (readerAuth.protectedHeaders.headers?.get(Header.Algorithm) !== SignatureAlgorithm.ES256)
      throw new Error('ReaderAuth is not ES256');
    const failed: VerificationAssessment[] = [];
    await readerAuth.verify(
      {
        readerAuthentication: { sessionTranscript: transcript, itemsRequest: docRequest.itemsRequest },
        verificationCallback: (assessment) => {
          if (assessment.status === 'FAILED') failed.push(assessment);
        },
      },
      verifyingContext,
    );
    if (failed.length > 0) throw new Error(`ReaderAuth does not verify: ${failed[0]!.check}`);
    const readerChain = readerAuth.certificateChain;
    await checkReaderChain(readerChain, options.readerAnchors);
    docRequests.push({
      docType: docRequest.itemsRequest.docType,
      nameSpaces: docRequest.itemsRequest.namespaces,
      readerChain,
    });
  }
  return { deviceRequest, docRequests, recipientPublicKey, encryptionInfo: data.encryptionInfo, transcript };
}

/** The reader chain links to an anchor by signature, and the leaf is for reader authentication. */
async function checkReaderChain(chain: Uint8Array[], anchors: Uint8Array[]): Promise<void> {
  const certificates = chain.map((der) => new x509.X509Certificate(der));
  const leaf = certificates[0];
  if (!leaf) throw new Error('ReaderAuth has no x5chain');
  const eku = leaf.getExtension(x509.ExtendedKeyUsageExtension);
  if (!eku?.usages.map(String).includes(READER_AUTH_EKU)) throw new Error('the reader leaf lacks the reader EKU');
  const anchorCertificates = anchors.map((der) => new x509.X509Certificate(der));
  let current = leaf;
  for (const next of [...certificates.slice(1), undefined]) {
    const issuer = next ?? anchorCertificates.find((anchor) => anchor.subject === current.issuer);
    if (!issuer) throw new Error(`no anchor issued ${current.subject}`);
    if (!(await current.verify({ publicKey: issuer.publicKey, signatureOnly: true })))
      throw new Error(`${current.subject} is not signed by ${issuer.subject}`);
    if (!next) return;
    current = next;
  }
}

export interface AnnexCDocument {
  /** What the wallet holds (from `issueMdoc`). */
  issuerSigned: IssuerSigned;
  devicePrivateJwk: JWK;
  /** Elements to disclose per namespace; default what the DocRequest asks for. */
  reveal?: Record<string, string[]>;
}

/** A document answering one DocRequest, its device signature over `transcript`. */
export async function presentAnnexCDocument(
  document: AnnexCDocument,
  docType: string,
  requested: Map<string, Map<string, boolean>> | undefined,
  transcript: SessionTranscript,
): Promise<Document> {
  const disclosed = new Map<string, ReturnType<IssuerNamespaces['getIssuerNamespace']> & object>();
  for (const [namespace, items] of document.issuerSigned.issuerNamespaces?.issuerNamespaces ?? new Map()) {
    const wanted = document.reveal?.[namespace] ?? [...(requested?.get(namespace)?.keys() ?? [])];
    const kept = items.filter((item) => wanted.includes(item.elementIdentifier));
    if (kept.length > 0) disclosed.set(namespace, kept);
  }
  return signDocument({
    issuerSigned: document.issuerSigned,
    docType,
    disclosed,
    devicePrivateJwk: document.devicePrivateJwk,
    sessionTranscript: transcript,
  });
}

/**
 * `["dcapi", { enc, cipherText }]` in base64url: `plaintext` sealed with HPKE
 * (base mode, P-256, HKDF-SHA256, AES-128-GCM) to `recipientPublicKey`, `info`
 * = the plain CBOR of `transcript`, empty `aad`.
 */
export async function sealAnnexCResponse(options: {
  plaintext: Uint8Array;
  recipientPublicKey: Uint8Array;
  transcript: SessionTranscript;
}): Promise<string> {
  const publicKey = await hpke.DeserializePublicKey(options.recipientPublicKey);
  const { encapsulatedSecret, ciphertext } = await hpke.Seal(publicKey, options.plaintext, {
    info: options.transcript.encode(),
    aad: new Uint8Array(0),
  });
  return encodeEncryptedResponse({ enc: encapsulatedSecret, cipherText: ciphertext });
}

export function encodeEncryptedResponse(options: { enc: Uint8Array; cipherText: Uint8Array }): string {
  const data = new Map<string, Uint8Array>([
    ['enc', options.enc],
    ['cipherText', options.cipherText],
  ]);
  return Buffer.from(cborEncode(['dcapi', data])).toString('base64url');
}

export function decodeEncryptedResponse(response: string): { enc: Uint8Array; cipherText: Uint8Array } {
  const [, data] = cborDecode(Buffer.from(response, 'base64url')) as [string, Map<string, Uint8Array>];
  return { enc: data.get('enc')!, cipherText: data.get('cipherText')! };
}

/**
 * The wallet's whole answer: parse and check the request, one document per
 * DocRequest it holds a credential for (in request order), the DeviceResponse
 * sealed to the request's EncryptionInfo. `transcriptOrigin` binds the answer
 * to another origin than the one the request was checked under: the negative
 * case of an answer relayed through another page.
 */
export async function answerAnnexCRequest(
  data: AnnexCRequestData,
  options: {
    origin: string;
    readerAnchors: Uint8Array[];
    documents: Record<string, AnnexCDocument>;
    transcriptOrigin?: string;
  },
): Promise<{ response: string; deviceResponse: Uint8Array }> {
  const parsed = await parseAnnexCRequest(data, options);
  const bound = options.transcriptOrigin
    ? holderTranscript({ encryptionInfo: data.encryptionInfo, origin: options.transcriptOrigin })
    : parsed.transcript;
  const documents: Document[] = [];
  for (const docRequest of parsed.docRequests) {
    const held = options.documents[docRequest.docType];
    if (held) documents.push(await presentAnnexCDocument(held, docRequest.docType, docRequest.nameSpaces, bound));
  }
  const deviceResponse = DeviceResponse.createSimple({ documents }).encode();
  return {
    response: await sealAnnexCResponse({
      plaintext: deviceResponse,
      recipientPublicKey: parsed.recipientPublicKey,
      transcript: bound,
    }),
    deviceResponse,
  };
}

/** The same EncryptedResponse with one bit of its ciphertext flipped. */
export function tamperCipherText(response: string): string {
  const { enc, cipherText } = decodeEncryptedResponse(response);
  const altered = new Uint8Array(cipherText);
  altered[altered.length >> 1]! ^= 0x01;
  return encodeEncryptedResponse({ enc, cipherText: altered });
}
