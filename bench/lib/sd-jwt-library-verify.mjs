// The reference for what SD-JWT VC verification costs in a library, with nothing of
// the service around it: `@sd-jwt/sd-jwt-vc` verifies the issuer signature (with the
// issuer leaf's key, taken from its x5c once: no chain work per presentation), the
// disclosures against `_sd`, and the KB-JWT (signature with the `cnf` key, nonce,
// sd_hash), with ES256 from node:crypto. No HTTP, no database, no trust decisions.
import { createPublicKey, verify, X509Certificate } from 'node:crypto';
import { digest } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';

const es256 = (key, data, signature) =>
  verify('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));

/**
 * @param {{ x5c: string[] }} issuer from createIssuer (bench/lib/sd-jwt-issuer.mjs)
 * @returns {(item: { presentation: string, nonce: string }) => Promise<void>} rejects unless the presentation verifies
 */
export function createLibraryVerifier(issuer) {
  const issuerKey = new X509Certificate(Buffer.from(issuer.x5c[0], 'base64')).publicKey;
  const library = new SDJwtVcInstance({
    hasher: digest,
    verifier: (data, signature) => es256(issuerKey, data, signature),
    kbVerifier: (data, signature, payload) =>
      es256(createPublicKey({ key: payload.cnf.jwk, format: 'jwk' }), data, signature),
  });
  return async ({ presentation, nonce }) => {
    const verified = await library.verify(presentation, {
      keyBindingNonce: nonce,
      requiredClaimKeys: ['given_name', 'family_name'],
    });
    if (!verified.kb || verified.payload.given_name !== 'Erika')
      throw new Error('the library did not verify the presentation with its key binding');
  };
}
