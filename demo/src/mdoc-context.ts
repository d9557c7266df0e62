import 'reflect-metadata';
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  randomBytes,
  sign,
  verify,
  webcrypto,
  type JsonWebKeyInput,
} from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { CoseKey, type MdocContext } from '@owf/mdoc';

x509.cryptoProvider.set(webcrypto as never);

const notUsed = (): never => {
  throw new Error('not used by the demo issuer and wallet');
};

/**
 * What @owf/mdoc needs from the platform to issue and present mdocs and sign COSE
 * (the demo issuer's mDL and its CWT status list, the wallet's device signature):
 * randomness, digests and ES256 signatures from node:crypto. The one verification is
 * the wallet's: an `org-iso-mdoc` request's ReaderAuth, with its x5chain leaf's key.
 */
export const mdocContext: MdocContext = {
  crypto: {
    random: (length) => new Uint8Array(randomBytes(length)),
    digest: ({ digestAlgorithm, bytes }) =>
      new Uint8Array(createHash(digestAlgorithm.replace('-', '').toLowerCase()).update(bytes).digest()),
    calculateEphemeralMacKey: notUsed,
  },
  cose: {
    sign1: {
      sign: ({ toBeSigned, key }) => {
        const { kty, crv, x, y, d } = key.jwk as Record<string, string>;
        const privateKey = createPrivateKey({ key: { kty, crv, x, y, d }, format: 'jwk' } as JsonWebKeyInput);
        // COSE carries ECDSA signatures as r || s (RFC 9053 §2.1).
        return new Uint8Array(sign('sha256', toBeSigned, { key: privateKey, dsaEncoding: 'ieee-p1363' }));
      },
      verify: ({ sign1, key }) => {
        const { kty, crv, x, y } = key.jwk as Record<string, string>;
        const publicKey = createPublicKey({ key: { kty, crv, x, y }, format: 'jwk' } as JsonWebKeyInput);
        return verify('sha256', sign1.toBeSigned, { key: publicKey, dsaEncoding: 'ieee-p1363' }, sign1.signature);
      },
    },
    mac0: { sign: notUsed, verify: notUsed },
  },
  x509: {
    getIssuerNameField: notUsed,
    getPublicKey: async ({ certificate }) => {
      const key = await new x509.X509Certificate(Buffer.from(certificate)).publicKey.export();
      return CoseKey.fromJwk((await webcrypto.subtle.exportKey('jwk', key as webcrypto.CryptoKey)) as never);
    },
    verifyCertificateChain: notUsed,
    getCertificateData: notUsed,
  },
};
