import 'reflect-metadata';
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import * as x509 from '@peculiar/x509';
import { exportJWK, SignJWT, type JWK } from 'jose';

x509.cryptoProvider.set(webcrypto as never);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** The host the demo credentials' `iss` names (https://…): the signing certificate carries it as SAN dNSName. */
export const DEMO_ISSUER_HOST = 'issuer.demo.tessera.example';

/** The demo issuer: a CA (what verifiers trust) and a signing certificate it issued. */
export interface DemoIssuer {
  caPem: string;
  signingKey: webcrypto.CryptoKey;
  /** `x5c` of issuer-signed tokens: the signing certificate (the CA is the trust anchor, not sent). */
  x5c: string[];
  name: string;
}

export async function createDemoIssuer(name = 'Demo Issuing Authority'): Promise<DemoIssuer> {
  const now = new Date();
  const inYears = (years: number) => new Date(now.getTime() + years * 365 * 86400_000);
  const caKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8).toString('hex'),
    name: `CN=${name} Root CA, O=Tessera demo`,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: inYears(5),
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    // The subject key identifier names the CA in a trust registry and in DCQL `trusted_authorities` (type aki).
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const signingKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: randomBytes(8).toString('hex'),
    subject: `CN=${name}, O=Tessera demo`,
    issuer: ca.subject,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter: inYears(1),
    publicKey: signingKeys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: ALGORITHM,
    // SD-JWT VC: an x5c-signed credential's iss must be https:// + a SAN dNSName of the leaf (verifiers check it).
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: DEMO_ISSUER_HOST }]),
      await x509.AuthorityKeyIdentifierExtension.create(ca),
    ],
  });
  return {
    caPem: ca.toString('pem'),
    signingKey: signingKeys.privateKey,
    x5c: [Buffer.from(leaf.rawData).toString('base64')],
    name,
  };
}

/**
 * A 1-bit status list (draft-ietf-oauth-status-list), statuses packed LSB first, as a
 * token signed by the issuer's own certificate (verifiers trust a list only from the
 * credential's issuer) and issued now (`iat` is required; a list older than its ttl is stale).
 */
export async function signStatusList(
  issuer: DemoIssuer,
  options: { uri: string; statuses: number[]; ttlSeconds: number },
): Promise<string> {
  return new SignJWT({
    status_list: { bits: 1, lst: compressStatuses(options.statuses).toString('base64url') },
    ttl: options.ttlSeconds,
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'statuslist+jwt', x5c: issuer.x5c })
    .setSubject(options.uri)
    .setIssuedAt()
    .setExpirationTime('1d')
    .sign(issuer.signingKey);
}

/** 1-bit statuses packed least significant bit first, ZLIB-compressed: a status list's `lst` bytes. */
export function compressStatuses(statuses: number[]): Buffer {
  const bytes = Buffer.alloc(Math.ceil(statuses.length / 8));
  statuses.forEach((status, index) => {
    bytes[index >> 3]! |= (status & 1) << (index & 7);
  });
  return deflateSync(bytes, { level: 9 });
}

/** An issued SD-JWT VC: the issuer-signed JWT and one disclosure per claim. */
export interface IssuedCredential {
  issuerJwt: string;
  disclosures: Map<string, string>;
}

/**
 * Issues an SD-JWT VC (RFC 9901, SD-JWT VC) bound to the holder's key, every claim
 * selectively disclosable, with a status list entry.
 */
export async function issueSdJwtVc(
  issuer: DemoIssuer,
  options: { vct: string; claims: Record<string, unknown>; holderPublicJwk: JWK; status: { idx: number; uri: string } },
): Promise<IssuedCredential> {
  const disclosures = new Map<string, string>();
  const digests: string[] = [];
  for (const [name, value] of Object.entries(options.claims)) {
    const disclosure = Buffer.from(JSON.stringify([randomBytes(16).toString('base64url'), name, value])).toString(
      'base64url',
    );
    disclosures.set(name, disclosure);
    digests.push(createHash('sha256').update(disclosure).digest('base64url'));
  }
  const issuerJwt = await new SignJWT({
    vct: options.vct,
    _sd: digests.sort(),
    _sd_alg: 'sha-256',
    cnf: { jwk: options.holderPublicJwk },
    status: { status_list: options.status },
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'dc+sd-jwt', x5c: issuer.x5c })
    .setIssuer(`https://${DEMO_ISSUER_HOST}`)
    .setIssuedAt()
    .setNotBefore(Math.floor(Date.now() / 1000) - 60)
    .setExpirationTime('365d')
    .sign(issuer.signingKey);
  return { issuerJwt, disclosures };
}

export async function publicJwkOf(key: webcrypto.CryptoKey): Promise<JWK> {
  const { kty, crv, x, y } = await exportJWK(key);
  return { kty, crv, x, y };
}
