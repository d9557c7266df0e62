import { createHash, createPrivateKey, randomBytes, sign, type JsonWebKeyInput } from 'node:crypto';
import type { MdocContext } from '@owf/mdoc';

const notUsed = (): never => {
  throw new Error('the demo issuer and wallet only sign (ES256) and hash');
};

/**
 * What @owf/mdoc needs from the platform to issue and present mdocs and sign COSE
 * (the demo issuer's mDL and its CWT status list, the wallet's device signature):
 * randomness, digests and ES256 signatures from node:crypto. Verification is the
 * verifier's job, never the demo's.
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
      verify: notUsed,
    },
    mac0: { sign: notUsed, verify: notUsed },
  },
  x509: {
    getIssuerNameField: notUsed,
    getPublicKey: notUsed,
    verifyCertificateChain: notUsed,
    getCertificateData: notUsed,
  },
};
