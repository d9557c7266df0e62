// The demo wallet's ISO mdoc: an mDL for Alex Doe issued by the demo issuer, and its
// answer to an ISO/IEC 18013-7 Annex C request (`org-iso-mdoc`, the protocol Safari
// and Apple Wallet use over the Digital Credentials API). Written with @owf/mdoc,
// panva's `hpke` and @peculiar/x509: nothing shared with the verifier's code.
import 'reflect-metadata';
import { createHash, createPrivateKey, createPublicKey, randomBytes, sign, verify, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import {
  cborDecode,
  cborEncode,
  CoseKey,
  DeviceAuth,
  DeviceAuthentication,
  DeviceKey,
  DeviceNamespaces,
  DeviceRequest,
  DeviceResponse,
  DeviceSignature,
  DeviceSigned,
  Document,
  Header,
  Issuer,
  IssuerNamespaces,
  IssuerSigned,
  ProtectedHeaders,
  QrHandover,
  SessionTranscript,
  SignatureAlgorithm,
  UnprotectedHeaders,
  type MdocContext,
} from '@owf/mdoc';
import { AEAD_AES_128_GCM, CipherSuite, KDF_HKDF_SHA256, KEM_DHKEM_P256_HKDF_SHA256 } from 'hpke';
import { exportJWK, type JWK } from 'jose';
import type { DemoIssuer } from './issuer.js';

x509.cryptoProvider.set(webcrypto as never);

export const MDL_DOCTYPE = 'org.iso.18013.5.1.mDL';
export const MDL_NAMESPACE = 'org.iso.18013.5.1';
/** ISO/IEC 18013-5 Annex B: the purpose a reader certificate must carry for the wallet to trust its request. */
const READER_AUTH_EKU = '1.0.18013.5.1.6';
const DAY = 86_400_000;

/** What the demo wallet holds besides its SD-JWT VC: the mDL and its device key. */
export interface DemoMdl {
  issuerSigned: IssuerSigned;
  devicePrivateJwk: JWK;
}

const notUsed = (): never => {
  throw new Error('not used by the demo wallet');
};
const nodeKey = (key: CoseKey) => key.jwk as Record<string, string>;

/** Signs with node:crypto (issuer and device signatures) and verifies ReaderAuth signatures with the x5chain leaf's key. */
const mdocContext: MdocContext = {
  crypto: {
    random: (length) => new Uint8Array(randomBytes(length)),
    digest: ({ digestAlgorithm, bytes }) =>
      new Uint8Array(createHash(digestAlgorithm.replace('-', '').toLowerCase()).update(bytes).digest()),
    calculateEphemeralMacKey: notUsed,
  },
  cose: {
    sign1: {
      sign: ({ toBeSigned, key }) => {
        const { kty, crv, x, y, d } = nodeKey(key);
        const privateKey = createPrivateKey({ key: { kty, crv, x, y, d } as never, format: 'jwk' });
        return new Uint8Array(sign('sha256', toBeSigned, { key: privateKey, dsaEncoding: 'ieee-p1363' }));
      },
      verify: ({ sign1, key }) => {
        const { kty, crv, x, y } = nodeKey(key);
        const publicKey = createPublicKey({ key: { kty, crv, x, y } as never, format: 'jwk' });
        return verify('sha256', sign1.toBeSigned, { key: publicKey, dsaEncoding: 'ieee-p1363' }, sign1.signature);
      },
    },
    mac0: { sign: notUsed, verify: notUsed },
  },
  x509: {
    getIssuerNameField: notUsed,
    verifyCertificateChain: notUsed,
    getCertificateData: notUsed,
    getPublicKey: async ({ certificate }) => {
      const key = await new x509.X509Certificate(Buffer.from(certificate)).publicKey.export();
      return CoseKey.fromJwk((await webcrypto.subtle.exportKey('jwk', key as webcrypto.CryptoKey)) as never);
    },
  },
};

/** The demo issuer issues Alex Doe's mDL (valid from now for 300 days), its device key fresh. */
export async function issueDemoMdl(issuer: DemoIssuer): Promise<DemoMdl> {
  const device = await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const { kty, crv, x, y, d } = await exportJWK(device.privateKey);
  const mdl = new Issuer(MDL_DOCTYPE, mdocContext);
  mdl.addIssuerNamespace(MDL_NAMESPACE, {
    given_name: 'Alex',
    family_name: 'Doe',
    birth_date: '1990-04-01',
    age_over_18: true,
  });
  const now = Date.now();
  const issuerSigned = await mdl.sign({
    signingKey: CoseKey.fromJwk((await exportJWK(issuer.signingKey)) as never),
    algorithm: SignatureAlgorithm.ES256,
    digestAlgorithm: 'SHA-256',
    // Signed now: within the validity of the demo issuer's signing certificate, which starts a minute ago.
    validityInfo: { signed: new Date(now), validFrom: new Date(now), validUntil: new Date(now + 300 * DAY) },
    deviceKeyInfo: { deviceKey: DeviceKey.fromJwk({ kty, crv, x, y, alg: 'ES256' } as never) },
    certificates: issuer.x5c.map((der) => new Uint8Array(Buffer.from(der, 'base64'))),
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
    documents.push(await presentMdl(options.mdl, new Map([[MDL_NAMESPACE, items]]), transcript));
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

/** A Document disclosing `disclosed`, the device signing DeviceAuthentication over `transcript`. */
async function presentMdl(
  mdl: DemoMdl,
  disclosed: Map<string, ReturnType<IssuerNamespaces['getIssuerNamespace']> & object>,
  transcript: SessionTranscript,
): Promise<Document> {
  const deviceNamespaces = DeviceNamespaces.create({ deviceNamespaces: new Map() });
  const deviceAuthentication = DeviceAuthentication.create({
    sessionTranscript: transcript,
    docType: MDL_DOCTYPE,
    deviceNamespaces,
  });
  const deviceSignature = await DeviceSignature.create(
    {
      protectedHeaders: ProtectedHeaders.create({
        protectedHeaders: new Map([[Header.Algorithm, SignatureAlgorithm.ES256]]),
      }),
      unprotectedHeaders: UnprotectedHeaders.create({}),
      detachedPayload: deviceAuthentication.encode({ asDataItem: true }),
      signingKey: CoseKey.fromJwk(mdl.devicePrivateJwk as never),
    },
    mdocContext,
  );
  return Document.create({
    docType: MDL_DOCTYPE,
    issuerSigned: IssuerSigned.create({
      issuerNamespaces: IssuerNamespaces.create({ issuerNamespaces: disclosed }),
      issuerAuth: mdl.issuerSigned.issuerAuth,
    }),
    deviceSigned: DeviceSigned.create({ deviceNamespaces, deviceAuth: DeviceAuth.create({ deviceSignature }) }),
  });
}
