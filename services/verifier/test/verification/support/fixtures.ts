import { exportJWK, type JWK } from 'jose';
import type { CheckStatusOptions, StatusListChecker } from '../../../src/verification/index.js';
import { createCa, createLeaf, NOW, x509, type TestCertificate } from './pki.js';
import { generateEs256 } from './sd-jwt.js';

export { NOW };
export const NOW_SECONDS = Math.floor(NOW.getTime() / 1000);
export const CLIENT_ID = 'x509_hash:UIDpR4iRJ3nV7jsKzH-a7dHxXTWn8VIcYEP8ZS3CxOA';
export const RESPONSE_URI = 'https://verifier.example/oid4vp/authorization-responses/abc';
export const NONCE = 'n-0S6_WzA2Mj-session-nonce';
export const ORIGIN = 'https://rp.example';
export const VCT = 'https://credentials.example/identity';

export interface Pki {
  root: TestCertificate;
  intermediate: TestCertificate;
  issuer: TestCertificate;
  iaca: TestCertificate;
  documentSigner: TestCertificate;
  documentSignerJwk: JWK;
}

export async function createPki(): Promise<Pki> {
  const root = await createCa('CN=Test Issuer Root,O=Tessera Tests,C=DE');
  const intermediate = await createCa('CN=Test Issuer Intermediate,O=Tessera Tests,C=DE', root, { pathLength: 0 });
  // Its SAN names the host of the credentials' iss (https://issuer.example), as SD-JWT VC's x5c rule asks.
  const issuer = await createLeaf('CN=PID Issuer,O=Tessera Tests,C=DE', intermediate, {
    extraExtensions: [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'issuer.example' }])],
  });
  const iaca = await createCa('CN=Test IACA,O=Tessera Tests,C=US', undefined, { pathLength: 0 });
  const documentSigner = await createLeaf('CN=Test Document Signer,O=Tessera Tests,C=US', iaca);
  const documentSignerJwk = await exportJWK(documentSigner.keys.privateKey);
  return { root, intermediate, issuer, iaca, documentSigner, documentSignerJwk };
}

/** A status list checker that must not be called (credentials without status). */
export const noStatusLists: StatusListChecker = {
  check: async (options: CheckStatusOptions) => ({ ok: false, message: `unexpected status look-up of ${options.uri}` }),
};

export async function holderKeys() {
  return generateEs256();
}
