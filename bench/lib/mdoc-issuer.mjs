// An mdoc issuer and wallet for benchmarks, independent of the code under test: mDLs
// issued and DeviceResponses built with @owf/mdoc (the verifier uses @auth0/mdl), signed
// with node:crypto. The document signer is the SD-JWT issuer's leaf (bench/lib/sd-jwt-issuer.mjs),
// so one organisation trust anchor covers both formats, as a PID provider's does.
import { createHash, createPrivateKey, randomBytes, sign } from 'node:crypto';
import { generateEs256PrivateKey } from './key-pairs.mjs';
import {
  CoseKey,
  DeviceAuth,
  DeviceAuthentication,
  DeviceKey,
  DeviceNamespaces,
  DeviceResponse,
  DeviceSignature,
  DeviceSigned,
  Document,
  Header,
  IssuerSigned,
  Issuer,
  ProtectedHeaders,
  SessionTranscript,
  SignatureAlgorithm,
  UnprotectedHeaders,
} from '@owf/mdoc';

export const MDL_DOCTYPE = 'org.iso.18013.5.1.mDL';
export const MDL_NAMESPACE = 'org.iso.18013.5.1';
const DAY = 86_400_000;

const unused = () => {
  throw new Error('not used by the benchmark issuer and wallet');
};

/** What @owf/mdoc needs to issue and present: random bytes, digests and ES256 signatures from node:crypto. */
const mdocContext = {
  crypto: {
    random: (length) => new Uint8Array(randomBytes(length)),
    digest: ({ digestAlgorithm, bytes }) =>
      new Uint8Array(createHash(digestAlgorithm.replace('-', '').toLowerCase()).update(bytes).digest()),
    calculateEphemeralMacKey: unused,
  },
  cose: {
    sign1: {
      sign: ({ toBeSigned, key }) => {
        const { kty, crv, x, y, d } = key.jwk;
        return new Uint8Array(
          sign('sha256', toBeSigned, {
            key: createPrivateKey({ key: { kty, crv, x, y, d }, format: 'jwk' }),
            dsaEncoding: 'ieee-p1363',
          }),
        );
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

/** A device key pair as JWKs (the mdoc's DeviceKey and the wallet's signing key). */
export function createDevice() {
  const privateJwk = generateEs256PrivateKey().export({ format: 'jwk' });
  const { kty, crv, x, y } = privateJwk;
  return { privateJwk, publicJwk: { kty, crv, x, y } };
}

/**
 * An mDL (given_name, family_name) signed by the issuer's leaf, its x5chain the leaf
 * alone (the CA is the trust anchor), bound to the device key.
 * @param {{ x5c: string[], privateKey: import('node:crypto').KeyObject }} issuer from createIssuer
 */
export function issueMdl(issuer, device) {
  const mdl = new Issuer(MDL_DOCTYPE, mdocContext);
  mdl.addIssuerNamespace(MDL_NAMESPACE, { family_name: 'Mustermann', given_name: 'Erika' });
  const now = Date.now();
  return mdl.sign({
    signingKey: CoseKey.fromJwk(issuer.privateKey.export({ format: 'jwk' })),
    algorithm: SignatureAlgorithm.ES256,
    digestAlgorithm: 'SHA-256',
    validityInfo: {
      signed: new Date(now - DAY),
      validFrom: new Date(now - DAY),
      validUntil: new Date(now + 365 * DAY),
    },
    // The device key carries `alg`: the verifier's mdoc library refuses device signatures by a key without one.
    deviceKeyInfo: { deviceKey: DeviceKey.fromJwk({ ...device.publicJwk, alg: 'ES256' }) },
    certificates: issuer.x5c.map((der) => new Uint8Array(Buffer.from(der, 'base64'))),
  });
}

/**
 * The base64url DeviceResponse a wallet posts as the `vp_token` entry for a
 * `direct_post` request: every issued element disclosed, the device signature over
 * the OpenID4VP 1.0 SessionTranscript (client_id, response_uri, nonce; OpenID4VP 1.0 §B.2).
 */
export async function presentMdl(issuerSigned, device, { clientId, responseUri, nonce }) {
  const sessionTranscript = await SessionTranscript.forOid4Vp({ clientId, responseUri, nonce }, mdocContext);
  const deviceNamespaces = DeviceNamespaces.create({ deviceNamespaces: new Map() });
  const deviceAuthentication = DeviceAuthentication.create({
    sessionTranscript,
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
      signingKey: CoseKey.fromJwk(device.privateJwk),
    },
    mdocContext,
  );
  const document = Document.create({
    docType: MDL_DOCTYPE,
    issuerSigned: IssuerSigned.create({
      issuerNamespaces: issuerSigned.issuerNamespaces,
      issuerAuth: issuerSigned.issuerAuth,
    }),
    deviceSigned: DeviceSigned.create({ deviceNamespaces, deviceAuth: DeviceAuth.create({ deviceSignature }) }),
  });
  return DeviceResponse.createSimple({ documents: [document] }).encodedForOid4Vp;
}

/** DCQL query for one mDL with its two names. */
export function mdlQuery() {
  return {
    combine: 'all',
    credentials: [
      {
        id: 'mdl',
        format: 'mso_mdoc',
        meta: { doctype_value: MDL_DOCTYPE },
        claims: [
          { path: [MDL_NAMESPACE, 'family_name'], intent_to_retain: false },
          { path: [MDL_NAMESPACE, 'given_name'], intent_to_retain: false },
        ],
      },
    ],
  };
}
