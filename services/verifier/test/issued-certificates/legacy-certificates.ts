// Certificates shaped as the verifier issued them before round 2, written here with
// @peculiar/x509 directly: the platform CA named by one multi-valued RDN
// `CN=… + O=…`, request-signing leaves `CN=… + O=… + OU=…`. Their SET OF is not in
// DER order, so strict parsers refuse them.
import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import type { JWK } from 'jose';

x509.cryptoProvider.set(webcrypto as never);
const P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

export interface LegacyCa {
  certificate: x509.X509Certificate;
  keys: webcrypto.CryptoKeyPair;
  pem: string;
  privateKeyPem: string;
}

export async function legacyPlatformCa(): Promise<LegacyCa> {
  const keys = (await webcrypto.subtle.generateKey(P256, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8)
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    name: [{ CN: ['Tessera Platform Request Signing CA'], O: ['Tessera'] }],
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 3650 * DAY),
    signingAlgorithm: P256,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return {
    certificate,
    keys,
    pem: certificate.toString('pem'),
    privateKeyPem: `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`,
  };
}

/** A leaf for `publicJwk` (P-256 or Ed25519) under the legacy CA, as x5c base64 DER. */
export async function legacyLeaf(
  ca: LegacyCa,
  options: { publicJwk: JWK; host: string; orgId: string },
): Promise<string> {
  const { kty, crv, x, y } = options.publicJwk;
  const algorithm = crv === 'Ed25519' ? { name: 'Ed25519' } : P256;
  const publicKey = await webcrypto.subtle.importKey('jwk', { kty, crv, x, ...(y ? { y } : {}) }, algorithm, true, [
    'verify',
  ]);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomBytes(8)
      .toString('hex')
      .replace(/^[89a-f]/, '1'),
    subject: [{ CN: [options.host], O: [options.orgId], OU: ['OpenID4VP request signing'] }],
    issuer: ca.certificate.subjectName,
    notBefore: new Date(Date.now() - DAY),
    notAfter: new Date(Date.now() + 300 * DAY),
    signingAlgorithm: P256,
    publicKey,
    signingKey: ca.keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: options.host }]),
    ],
  });
  return Buffer.from(certificate.rawData).toString('base64');
}
