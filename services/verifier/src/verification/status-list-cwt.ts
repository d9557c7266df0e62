import { STATUS_LIST_CWT_MEDIA_TYPE, StatusListCwt } from '@tessera/contracts';
import {
  coseHeaderParameter,
  decodeCborMap,
  decodeCoseSign1,
  verifyCoseSign1Signature,
  type CoseSign1,
} from './cose-sign1.js';
import { findIssuerKey, type FindIssuerKeyResult } from './issuer-key.js';
import type { OpenedStatusListToken } from './opened-status-list-token.js';

const { header: HEADER, claim: CLAIM } = StatusListCwt;
/** CWT `iss` (RFC 8392): read only to find a DID issuer's key, as a JWT's `iss` is. */
const CLAIM_ISS = 1;

/**
 * Opens a Status List Token in CWT form (draft-ietf-oauth-status-list, Status List
 * Token in CWT Format): a COSE_Sign1_Tagged (`cose-sign1.ts`, strict CBOR) whose
 * protected header carries `typ` (16) and the algorithm, and whose payload is the CWT
 * claims map: `sub` (2), `iat` (6), `exp` (4), `ttl` (65534) and the status list
 * (65533) `{ bits, lst: bytes }`. The signer is named as for the JWT form: an
 * `x5chain` (33; mdoc issuers often put it in the unprotected header, so either
 * bucket), else a DID in `kid` (4, the DID URL as UTF-8 bytes or text) or in `iss` (1).
 * Throws with a sentence when the bytes are not such a token.
 */
export function openStatusListCwt(bytes: Uint8Array): OpenedStatusListToken {
  const sign1 = decodeCoseSign1(bytes);
  if (!sign1.protectedHeader.has(HEADER.TYP) && sign1.unprotectedHeader.has(HEADER.TYP))
    throw new Error(`the typ (${HEADER.TYP}) is in the unprotected header: it must be protected`);
  const claims = decodeCborMap(sign1.payload, 'payload (the CWT claims)');
  const statusList = claims.get(CLAIM.STATUS_LIST);
  return {
    format: 'cwt',
    typ: sign1.protectedHeader.get(HEADER.TYP),
    expectedTyp: STATUS_LIST_CWT_MEDIA_TYPE,
    claims: {
      sub: claims.get(CLAIM.SUB),
      iat: claims.get(CLAIM.IAT),
      exp: claims.get(CLAIM.EXP),
      ttl: claims.get(CLAIM.TTL),
      // The status list's own keys are text (bits, lst, aggregation_uri).
      statusList: statusList instanceof Map ? Object.fromEntries(statusList) : statusList,
    },
    lstEncoding: 'bytes',
    signer: findCwtSigner(sign1, claims.get(CLAIM_ISS)),
    // A refusal is a rejected promise, as the JWT form's is (a throw in the executor rejects).
    verifySignature: (key) => new Promise<void>((resolve) => resolve(verifyCoseSign1Signature(sign1, key))),
  };
}

/** The signing key the headers name, found by the same rule as a JWT's (`findIssuerKey`). */
function findCwtSigner(sign1: CoseSign1, iss: unknown): FindIssuerKeyResult {
  const x5chain = coseHeaderParameter(sign1, HEADER.X5CHAIN);
  if (x5chain !== undefined) {
    // RFC 9360: one certificate as a byte string, or several (leaf first) as an array of them.
    const certificates = x5chain instanceof Uint8Array ? [x5chain] : x5chain;
    if (
      !Array.isArray(certificates) ||
      certificates.length === 0 ||
      !certificates.every((certificate) => certificate instanceof Uint8Array)
    ) {
      return { ok: false, message: 'the x5chain header (33) is not a certificate or an array of certificates' };
    }
    const x5c = certificates.map((certificate: Uint8Array) => Buffer.from(certificate).toString('base64'));
    return findIssuerKey({ header: { x5c } });
  }
  const kid = coseHeaderParameter(sign1, HEADER.KID);
  const kidText = kid instanceof Uint8Array ? Buffer.from(kid).toString('utf8') : kid;
  return findIssuerKey({ header: typeof kidText === 'string' ? { kid: kidText } : {}, iss });
}
