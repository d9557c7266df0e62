import {
  cborEncode,
  CoseKey,
  DataItem,
  DeviceKey,
  Issuer,
  IssuerAuth,
  IssuerSigned,
  Sign1,
  SignatureAlgorithm,
} from '@owf/mdoc';
import { exportJWK, type JWK } from 'jose';
import { compressStatuses, type DemoIssuer } from './issuer.js';
import { mdocContext } from './mdoc-context.js';

// The demo issuer's CBOR side, written with @owf/mdoc: an mDL (ISO/IEC 18013-5 mdoc)
// whose MSO names its status list entry, and that list as a Status List Token in CWT
// form — what mdoc issuers publish (draft-ietf-oauth-status-list).

export const MDL_DOCTYPE = 'org.iso.18013.5.1.mDL';
export const MDL_NAMESPACE = 'org.iso.18013.5.1';

/** COSE header labels and CWT claim keys (RFC 9052, RFC 9360, RFC 8392, draft-ietf-oauth-status-list). */
const HEADER = { ALG: 1, TYP: 16, X5CHAIN: 33 } as const;
const CLAIM = { SUB: 2, EXP: 4, IAT: 6, STATUS_LIST: 65533, TTL: 65534 } as const;

async function signingKeyOf(issuer: DemoIssuer): Promise<CoseKey> {
  return CoseKey.fromJwk((await exportJWK(issuer.signingKey)) as Record<string, unknown>);
}

/** The issuer's signing certificate as DER: mdoc and COSE carry certificates as bytes (`x5chain`). */
function certificateOf(issuer: DemoIssuer): Uint8Array {
  return new Uint8Array(Buffer.from(issuer.x5c[0]!, 'base64'));
}

/**
 * A 1-bit Status List Token in CWT form (application/statuslist+cwt): a COSE_Sign1
 * (CBOR tag 18) whose protected header carries the algorithm and `typ`, whose payload is
 * the CWT claims `sub` (the list's URI), `iat`, `exp`, `ttl` and the status list
 * `{ bits, lst }`, signed by the issuer's own certificate, which travels in the
 * unprotected `x5chain` as mdoc issuers put it.
 */
export async function signStatusListCwt(
  issuer: DemoIssuer,
  options: { uri: string; statuses: number[]; ttlSeconds: number },
): Promise<Buffer> {
  const now = Math.floor(Date.now() / 1000);
  const claims = new Map<number, unknown>([
    [CLAIM.SUB, options.uri],
    [CLAIM.IAT, now],
    [CLAIM.EXP, now + 86_400],
    [CLAIM.TTL, options.ttlSeconds],
    [
      CLAIM.STATUS_LIST,
      new Map<string, unknown>([
        ['bits', 1],
        ['lst', new Uint8Array(compressStatuses(options.statuses))],
      ]),
    ],
  ]);
  const sign1 = await Sign1.create(
    {
      protectedHeaders: new Map<number, unknown>([
        [HEADER.ALG, SignatureAlgorithm.ES256],
        [HEADER.TYP, 'application/statuslist+cwt'],
      ]),
      unprotectedHeaders: new Map<number, unknown>([[HEADER.X5CHAIN, certificateOf(issuer)]]),
      payload: cborEncode(claims),
      signingKey: await signingKeyOf(issuer),
      algorithm: SignatureAlgorithm.ES256,
    },
    mdocContext,
  );
  // COSE_Sign1_Tagged: tag 18 is the one byte 0xd2 before the array `encode` writes.
  return Buffer.concat([Buffer.from([0xd2]), sign1.encode()]);
}

/**
 * Issues an mDL bound to the holder's key, valid for a year, whose MSO names its status
 * list entry (`status: { status_list: { idx, uri } }`) when it has one. @owf/mdoc writes
 * MSOs without `status`, so the issuer adds it to the MSO and signs the MSO (a tag-24
 * data item) again.
 */
export async function issueMdl(
  issuer: DemoIssuer,
  options: { elements: Record<string, unknown>; holderPublicJwk: JWK; status?: { idx: number; uri: string } },
): Promise<IssuerSigned> {
  const signingKey = await signingKeyOf(issuer);
  const now = new Date();
  const { kty, crv, x, y } = options.holderPublicJwk;
  const signed = await new Issuer(MDL_DOCTYPE, mdocContext).addIssuerNamespace(MDL_NAMESPACE, options.elements).sign({
    signingKey,
    algorithm: SignatureAlgorithm.ES256,
    digestAlgorithm: 'SHA-256',
    validityInfo: {
      signed: now,
      validFrom: new Date(now.getTime() - 60_000),
      validUntil: new Date(now.getTime() + 365 * 86_400_000),
    },
    // Verifiers need the device key's algorithm to check the device signature.
    deviceKeyInfo: { deviceKey: DeviceKey.fromJwk({ kty, crv, x, y, alg: 'ES256' }) },
    certificates: [certificateOf(issuer)],
  });
  if (!options.status) return signed;
  const mso = new Map(signed.issuerAuth.mobileSecurityObject.encodedStructure as Map<unknown, unknown>);
  mso.set('status', new Map([['status_list', new Map<string, unknown>(Object.entries(options.status))]]));
  const issuerAuth = await IssuerAuth.create(
    {
      payload: cborEncode(DataItem.fromData(mso)),
      protectedHeaders: signed.issuerAuth.protectedHeaders,
      unprotectedHeaders: signed.issuerAuth.unprotectedHeaders,
      signingKey,
      algorithm: SignatureAlgorithm.ES256,
    },
    mdocContext,
  );
  return IssuerSigned.create({ issuerNamespaces: signed.issuerNamespaces!, issuerAuth });
}
