// Test issuers for the end-to-end tests: certificates from @peculiar/x509,
// SD-JWT VCs written with jose, mdocs with @owf/mdoc (helpers shared with the
// engine's own tests, read-only), and status list tokens signed by the issuer.
import { deflateSync } from 'node:zlib';
import { exportJWK, SignJWT, type JWK } from 'jose';
import { issueMdoc, MDL_DOCTYPE, MDL_NAMESPACE } from '../verification/support/mdoc.js';
import { createStatusListCwt } from '../verification/support/status-list-cwt.js';
import { createCa, createLeaf, x509, type TestCertificate } from '../verification/support/pki.js';
import { generateEs256, issueSdJwtVc, type IssuedSdJwtVc } from '../verification/support/sd-jwt.js';

export { MDL_DOCTYPE, MDL_NAMESPACE };
export const PID_VCT = 'https://example.eu/pid';
/** The `iss` of the test issuers' SD-JWT VCs; their leaves name its host as SAN dNSName (SD-JWT VC's x5c rule). */
export const ISSUER_HOST = 'issuer.tessera.test';
const DAY = 86_400_000;
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export type Holder = Awaited<ReturnType<typeof generateEs256>>;
export const newHolder = () => generateEs256();

/** An issuer: a CA (the trust anchor) and a signing leaf for SD-JWT VCs, mdocs and status lists. */
export interface TestIssuer {
  ca: TestCertificate;
  leaf: TestCertificate;
  leafPrivateJwk: JWK;
}

export async function createIssuer(name: string): Promise<TestIssuer> {
  const validity = { notBefore: new Date(Date.now() - 30 * DAY), notAfter: new Date(Date.now() + 365 * DAY) };
  const ca = await createCa(`CN=${name} CA,O=Tessera Tests`, undefined, { pathLength: 0, ...validity });
  const leaf = await createLeaf(`CN=${name},O=Tessera Tests`, ca, {
    ...validity,
    extraExtensions: [new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: ISSUER_HOST }])],
  });
  return { ca, leaf, leafPrivateJwk: await exportJWK(leaf.keys.privateKey) };
}

export interface IssuePidOptions {
  vct?: string;
  /** Expiry; default a day from now. */
  exp?: Date;
  status?: { uri: string; idx: number };
}

/** An SD-JWT VC (`dc+sd-jwt`) with given_name, family_name and age_over_18 disclosable, bound to the holder's key. */
export function issuePid(issuer: TestIssuer, holder: Holder, options: IssuePidOptions = {}): Promise<IssuedSdJwtVc> {
  const now = new Date();
  return issueSdJwtVc({
    signingKey: issuer.leaf.keys.privateKey,
    x5c: [issuer.leaf.x5c],
    vct: options.vct ?? PID_VCT,
    claims: {
      iss: `https://${ISSUER_HOST}`,
      iat: seconds(now) - 3600,
      exp: seconds(options.exp ?? new Date(now.getTime() + DAY)),
      ...(options.status ? { status: { status_list: { idx: options.status.idx, uri: options.status.uri } } } : {}),
    },
    disclosable: { given_name: 'Erika', family_name: 'Mustermann', age_over_18: true },
    holderPublicJwk: holder.publicJwk,
  });
}

/** An mDL with family_name and given_name, valid from yesterday to a year from now; its MSO names `status` when given. */
export function issueMdl(issuer: TestIssuer, holder: Holder, options: { status?: { uri: string; idx: number } } = {}) {
  return issueMdoc({
    namespaces: { [MDL_NAMESPACE]: { family_name: 'Mustermann', given_name: 'Erika' } },
    signerPrivateJwk: issuer.leafPrivateJwk,
    certificates: [issuer.leaf.der],
    devicePublicJwk: holder.publicJwk,
    validFrom: new Date(Date.now() - DAY),
    validUntil: new Date(Date.now() + 365 * DAY),
    ...(options.status ? { status: { status_list: { idx: options.status.idx, uri: options.status.uri } } } : {}),
  });
}

/** A Token Status List JWT (1 bit VALID/INVALID or 2 bits with SUSPENDED) signed by the issuer's leaf, `sub` = `uri`. */
export async function signStatusList(
  issuer: TestIssuer,
  options: { uri: string; bits: 1 | 2; statuses: Record<number, number>; size?: number },
): Promise<string> {
  const size = options.size ?? 1024;
  const bytes = Buffer.alloc((size * options.bits) / 8);
  for (const [index, value] of Object.entries(options.statuses)) {
    const offset = Number(index) * options.bits;
    bytes[Math.floor(offset / 8)]! |= value << (offset % 8);
  }
  // Issued now: a list fetched later than iat + ttl (plus clock skew) is refused as stale.
  return new SignJWT({
    sub: options.uri,
    iat: seconds(new Date()),
    ttl: 1,
    status_list: { bits: options.bits, lst: deflateSync(bytes).toString('base64url') },
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'statuslist+jwt', x5c: [issuer.leaf.x5c] })
    .sign(issuer.leaf.keys.privateKey);
}

/**
 * The same list as a Status List Token in CWT form (application/statuslist+cwt), as an mdoc
 * issuer publishes it: a COSE_Sign1 signed by the issuer's leaf, its certificate in the
 * unprotected `x5chain`, issued now with ttl 1.
 */
export function signStatusListCwt(
  issuer: TestIssuer,
  options: { uri: string; bits: 1 | 2; statuses: Record<number, number>; size?: number },
): Promise<Buffer> {
  const statuses = new Array<number>(options.size ?? 1024).fill(0);
  for (const [index, value] of Object.entries(options.statuses)) statuses[Number(index)] = value;
  return createStatusListCwt({
    signingKey: issuer.leaf.keys.privateKey,
    x5chain: [issuer.leaf.der],
    sub: options.uri,
    bits: options.bits,
    statuses,
    iat: seconds(new Date()),
    ttl: 1,
  });
}
