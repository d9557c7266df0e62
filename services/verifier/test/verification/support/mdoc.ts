// An mdoc issuer and wallet built with @owf/mdoc (OpenID4VP 1.0 handovers),
// with a node:crypto MdocContext: independent of @auth0/mdl and the code under test.
import { createHash, createPrivateKey, randomBytes, sign } from 'node:crypto';
import {
  cborEncode,
  CoseKey,
  DataItem,
  DeviceAuth,
  DeviceAuthentication,
  DeviceKey,
  DeviceNamespaces,
  DeviceResponse,
  DeviceSignature,
  DeviceSigned,
  Document,
  Header,
  IssuerNamespaces,
  IssuerSigned,
  Issuer,
  IssuerAuth,
  ProtectedHeaders,
  SessionTranscript,
  SignatureAlgorithm,
  UnprotectedHeaders,
  type MdocContext,
} from '@owf/mdoc';
import type { JWK } from 'jose';

const unused = (): never => {
  throw new Error('not used by the test issuer and wallet');
};

export const mdocContext: MdocContext = {
  crypto: {
    random: (length) => new Uint8Array(randomBytes(length)),
    digest: ({ digestAlgorithm, bytes }) =>
      new Uint8Array(createHash(digestAlgorithm.replace('-', '').toLowerCase()).update(bytes).digest()),
    calculateEphemeralMacKey: unused,
  },
  cose: {
    sign1: {
      sign: ({ toBeSigned, key }) => {
        const { kty, crv, x, y, d } = key.jwk as Record<string, string>;
        const privateKey = createPrivateKey({ key: { kty, crv, x, y, d } as never, format: 'jwk' });
        return new Uint8Array(sign('sha256', toBeSigned, { key: privateKey, dsaEncoding: 'ieee-p1363' }));
      },
      verify: unused,
    },
    mac0: { sign: unused, verify: unused },
  },
  x509: {
    getIssuerNameField: unused,
    getPublicKey: unused,
    verifyCertificateChain: unused,
    getCertificateData: unused,
  },
};

export const MDL_DOCTYPE = 'org.iso.18013.5.1.mDL';
export const MDL_NAMESPACE = 'org.iso.18013.5.1';

export interface IssueMdocOptions {
  docType?: string;
  namespaces: Record<string, Record<string, unknown>>;
  /** Document signer private JWK and its chain (DER, leaf first). */
  signerPrivateJwk: JWK;
  certificates: Uint8Array[];
  devicePublicJwk: JWK;
  validFrom: Date;
  validUntil: Date;
  signed?: Date;
  /**
   * The MSO's `status` (draft-ietf-oauth-status-list, Referenced Token in COSE; ISO/IEC
   * 18013-5 MSO `status`): e.g. `{ status_list: { idx, uri } }`, written as CBOR maps.
   */
  status?: Record<string, unknown>;
}

export async function issueMdoc(options: IssueMdocOptions): Promise<IssuerSigned> {
  const issuer = new Issuer(options.docType ?? MDL_DOCTYPE, mdocContext);
  for (const [namespace, values] of Object.entries(options.namespaces)) issuer.addIssuerNamespace(namespace, values);
  const { kty, crv, x, y } = options.devicePublicJwk;
  const signingKey = CoseKey.fromJwk(options.signerPrivateJwk as Record<string, unknown>);
  const issuerSigned = await issuer.sign({
    signingKey,
    algorithm: SignatureAlgorithm.ES256,
    digestAlgorithm: 'SHA-256',
    validityInfo: {
      signed: options.signed ?? options.validFrom,
      validFrom: options.validFrom,
      validUntil: options.validUntil,
    },
    // The device key carries `alg`: @auth0/mdl rejects device signatures by a key without one (VERIFIER.md).
    deviceKeyInfo: { deviceKey: DeviceKey.fromJwk({ kty, crv, x, y, alg: 'ES256' }) },
    certificates: options.certificates,
  });
  if (!options.status) return issuerSigned;
  // @owf/mdoc's MSO has no `status`: the issuer adds it to the MSO's map and signs the MSO again, as signed
  // (a tag-24 data item), with the same headers.
  const { issuerAuth } = issuerSigned;
  const mso = new Map(issuerAuth.mobileSecurityObject.encodedStructure as Map<unknown, unknown>);
  mso.set('status', toCborMaps(options.status));
  return IssuerSigned.create({
    issuerNamespaces: issuerSigned.issuerNamespaces!,
    issuerAuth: await IssuerAuth.create(
      {
        payload: cborEncode(DataItem.fromData(mso)),
        protectedHeaders: issuerAuth.protectedHeaders,
        unprotectedHeaders: issuerAuth.unprotectedHeaders,
        signingKey,
        algorithm: SignatureAlgorithm.ES256,
      },
      mdocContext,
    ),
  });
}

/** Plain objects as CBOR maps with text keys (what an MSO holds). */
function toCborMaps(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  return new Map(Object.entries(value).map(([key, entry]) => [key, toCborMaps(entry)]));
}

export type WalletHandover =
  | { kind: 'redirect'; clientId: string; responseUri: string; nonce: string; jwkThumbprint?: Uint8Array }
  | { kind: 'dc_api'; origin: string; nonce: string; jwkThumbprint?: Uint8Array };

/** The wallet's view of the OpenID4VP 1.0 SessionTranscript, built by @owf/mdoc. */
export async function walletTranscript(handover: WalletHandover): Promise<SessionTranscript> {
  if (handover.kind === 'redirect') {
    return SessionTranscript.forOid4Vp(
      {
        clientId: handover.clientId,
        responseUri: handover.responseUri,
        nonce: handover.nonce,
        ...(handover.jwkThumbprint ? { jwkThumbprint: handover.jwkThumbprint } : {}),
      },
      mdocContext,
    );
  }
  return SessionTranscript.forOid4VpDcApi(
    {
      origin: handover.origin,
      nonce: handover.nonce,
      ...(handover.jwkThumbprint ? { jwkThumbprint: handover.jwkThumbprint } : {}),
    },
    mdocContext,
  );
}

export interface PresentMdocOptions {
  issuerSigned: IssuerSigned;
  docType?: string;
  /** Elements to disclose per namespace (default all). */
  reveal?: Record<string, string[]>;
  devicePrivateJwk: JWK;
  handover: WalletHandover;
}

/** A base64url DeviceResponse with a device signature over the handover's SessionTranscript (OpenID4VP 1.0 §B.2). */
export async function presentMdoc(options: PresentMdocOptions): Promise<string> {
  const docType = options.docType ?? MDL_DOCTYPE;
  const disclosed = new Map<string, ReturnType<IssuerNamespaces['getIssuerNamespace']> & object>();
  for (const [namespace, items] of options.issuerSigned.issuerNamespaces?.issuerNamespaces ?? new Map()) {
    const allowed = options.reveal?.[namespace];
    if (options.reveal && !allowed) continue;
    disclosed.set(namespace, allowed ? items.filter((item) => allowed.includes(item.elementIdentifier)) : items);
  }
  const document = await signDocument({
    issuerSigned: options.issuerSigned,
    docType,
    disclosed,
    devicePrivateJwk: options.devicePrivateJwk,
    sessionTranscript: await walletTranscript(options.handover),
  });
  return DeviceResponse.createSimple({ documents: [document] }).encodedForOid4Vp;
}

/** A Document disclosing `disclosed`, its device signature (ES256) over DeviceAuthentication with `sessionTranscript`. */
export async function signDocument(options: {
  issuerSigned: IssuerSigned;
  docType: string;
  disclosed: Map<string, ReturnType<IssuerNamespaces['getIssuerNamespace']> & object>;
  devicePrivateJwk: JWK;
  sessionTranscript: SessionTranscript;
}): Promise<Document> {
  const { docType, sessionTranscript } = options;
  const deviceNamespaces = DeviceNamespaces.create({ deviceNamespaces: new Map() });
  const deviceAuthentication = DeviceAuthentication.create({ sessionTranscript, docType, deviceNamespaces });
  const { kty, crv, x, y, d } = options.devicePrivateJwk;
  const deviceSignature = await DeviceSignature.create(
    {
      protectedHeaders: ProtectedHeaders.create({
        protectedHeaders: new Map([[Header.Algorithm, SignatureAlgorithm.ES256]]),
      }),
      unprotectedHeaders: UnprotectedHeaders.create({}),
      detachedPayload: deviceAuthentication.encode({ asDataItem: true }),
      signingKey: CoseKey.fromJwk({ kty, crv, x, y, d }),
    },
    mdocContext,
  );
  return Document.create({
    docType,
    issuerSigned: IssuerSigned.create({
      issuerNamespaces: IssuerNamespaces.create({ issuerNamespaces: options.disclosed }),
      issuerAuth: options.issuerSigned.issuerAuth,
    }),
    deviceSigned: DeviceSigned.create({ deviceNamespaces, deviceAuth: DeviceAuth.create({ deviceSignature }) }),
  });
}
