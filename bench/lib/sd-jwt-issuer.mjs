// A test issuer for benchmarks, independent of the code under test: a CA and a
// signing leaf built with @peculiar/x509, SD-JWT VCs (RFC 9901, SD-JWT VC) and KB-JWTs
// written directly with node:crypto.
import 'reflect-metadata';
import { createHash, randomBytes, sign, webcrypto, KeyObject } from 'node:crypto';
import { generateEs256PrivateKey } from './key-pairs.mjs';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY = 86_400_000;
export const PID_VCT = 'https://example.eu/pid';
const ISSUER_HOST = 'issuer.bench.tessera.test';

const b64json = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
export const sha256 = (text) => createHash('sha256').update(text, 'ascii').digest('base64url');

/** An ES256 compact JWS signed with a node:crypto private KeyObject. */
export function signEs256(header, payload, privateKey) {
  const input = `${b64json(header)}.${b64json(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** Issuer CA (the trust anchor, PEM) and a leaf (digitalSignature) that signs credentials. */
export async function createIssuer(name = 'Bench PID Issuer') {
  const validity = { notBefore: new Date(Date.now() - 30 * DAY), notAfter: new Date(Date.now() + 365 * DAY) };
  const caKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const ca = await x509.X509CertificateGenerator.create({
    serialNumber: '01',
    subject: `CN=${name} CA,O=Tessera Bench`,
    issuer: `CN=${name} CA,O=Tessera Bench`,
    ...validity,
    signingAlgorithm: ALGORITHM,
    publicKey: caKeys.publicKey,
    signingKey: caKeys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const leafKeys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: `CN=${name},O=Tessera Bench`,
    issuer: ca.subject,
    ...validity,
    signingAlgorithm: ALGORITHM,
    publicKey: leafKeys.publicKey,
    signingKey: caKeys.privateKey,
    // The verifier checks iss against the leaf: https:// + a SAN dNSName (SD-JWT VC, x5c issuers).
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: ISSUER_HOST }]),
    ],
  });
  return {
    caPem: ca.toString('pem'),
    x5c: [Buffer.from(leaf.rawData).toString('base64')],
    privateKey: KeyObject.from(leafKeys.privateKey),
  };
}

/** A holder: an ES256 key pair (node:crypto) and its public JWK for `cnf`. */
export function createHolder() {
  const privateKey = generateEs256PrivateKey();
  const { kty, crv, x, y } = privateKey.export({ format: 'jwk' });
  return { privateKey, publicJwk: { kty, crv, x, y } };
}

/** An SD-JWT VC (dc+sd-jwt, x5c) with given_name, family_name and age_over_18 disclosable, bound to the holder. */
export function issuePid(issuer, holder) {
  const now = Math.floor(Date.now() / 1000);
  const disclosures = {};
  for (const [name, value] of Object.entries({ given_name: 'Erika', family_name: 'Mustermann', age_over_18: true })) {
    disclosures[name] = b64json([randomBytes(16).toString('base64url'), name, value]);
  }
  const payload = {
    vct: PID_VCT,
    iss: `https://${ISSUER_HOST}`,
    iat: now - 3600,
    exp: now + 86400,
    _sd: Object.values(disclosures).map(sha256).sort(),
    _sd_alg: 'sha-256',
    cnf: { jwk: holder.publicJwk },
  };
  return {
    jwt: signEs256({ alg: 'ES256', typ: 'dc+sd-jwt', x5c: issuer.x5c }, payload, issuer.privateKey),
    disclosures,
  };
}

/** The presentation the wallet sends: issuer JWT, given_name and family_name, and a KB-JWT for `nonce`/`aud`. */
export function presentPid(issued, holder, { nonce, aud, iat = Math.floor(Date.now() / 1000) }) {
  const withoutKb = `${[issued.jwt, issued.disclosures.given_name, issued.disclosures.family_name].join('~')}~`;
  return `${withoutKb}${signEs256({ alg: 'ES256', typ: 'kb+jwt' }, { nonce, aud, iat, sd_hash: sha256(withoutKb) }, holder.privateKey)}`;
}
