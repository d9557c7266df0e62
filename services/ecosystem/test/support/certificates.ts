import 'reflect-metadata';
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as never);

/** Certificates for trust registry tests, built directly with @peculiar/x509 (sharing no code with the service). */
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 86_400_000;

export interface TestCertificate {
  pem: string;
  certificate: x509.X509Certificate;
  keys: webcrypto.CryptoKeyPair;
  /** Lowercase hex SHA-256 of the DER, computed here independently of the service. */
  fingerprint: string;
  /** Lowercase hex, when the certificate has one. */
  ski: string | null;
  aki: string | null;
}

export interface CertificateOptions {
  name?: string;
  /** basicConstraints cA (default: a CA). */
  ca?: boolean;
  /** Add a subject key identifier (default true). */
  withSki?: boolean;
  /** Signed by this CA (with an AKI naming it); self-signed when absent. */
  issuer?: TestCertificate;
  notBefore?: Date;
  notAfter?: Date;
}

const serial = () =>
  randomBytes(8)
    .toString('hex')
    .replace(/^[89a-f]/, '1');

export async function makeCertificate(options: CertificateOptions = {}): Promise<TestCertificate> {
  const keys = (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const ca = options.ca ?? true;
  const name = options.name ?? (ca ? 'Test Issuer CA' : 'Test Issuer');
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(ca, ca ? 0 : undefined, true),
    new x509.KeyUsagesExtension(ca ? x509.KeyUsageFlags.keyCertSign : x509.KeyUsageFlags.digitalSignature, true),
  ];
  if (options.withSki ?? true) extensions.push(await x509.SubjectKeyIdentifierExtension.create(keys.publicKey));
  if (options.issuer) extensions.push(await x509.AuthorityKeyIdentifierExtension.create(options.issuer.certificate));
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: [{ CN: [name] }, { O: ['Tessera Tests'] }],
    issuer: options.issuer ? options.issuer.certificate.subject : [{ CN: [name] }, { O: ['Tessera Tests'] }],
    notBefore: options.notBefore ?? new Date(Date.now() - DAY),
    notAfter: options.notAfter ?? new Date(Date.now() + 365 * DAY),
    signingAlgorithm: EC,
    publicKey: keys.publicKey,
    signingKey: options.issuer ? options.issuer.keys.privateKey : keys.privateKey,
    extensions,
  });
  const ski = certificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId ?? null;
  const aki = certificate.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId ?? null;
  return {
    pem: certificate.toString('pem'),
    certificate,
    keys,
    fingerprint: createHash('sha256').update(Buffer.from(certificate.rawData)).digest('hex'),
    ski: ski?.toLowerCase() ?? null,
    aki: aki?.toLowerCase() ?? null,
  };
}

/** A CA with a subject key identifier (the usual trust anchor of an issuer). */
export const makeCa = (name = 'Test Issuer CA') => makeCertificate({ name, ca: true });

/** A leaf certificate signed by `issuer` (trusted exactly, by fingerprint). */
export const makeLeaf = (issuer: TestCertificate, name = 'Test Issuer Signer') =>
  makeCertificate({ name, ca: false, issuer });

/** A CA whose notAfter has passed. */
export const makeExpiredCa = () =>
  makeCertificate({
    name: 'Expired CA',
    notBefore: new Date(Date.now() - 30 * DAY),
    notAfter: new Date(Date.now() - DAY),
  });

/** A CA without a subject key identifier (refused: lists name CAs by it). */
export const makeCaWithoutSki = () => makeCertificate({ name: 'CA without SKI', withSki: false });

/** Text that looks like a certificate PEM but holds no certificate. */
export const GARBAGE_PEM = `-----BEGIN CERTIFICATE-----\n${Buffer.from('not a certificate at all').toString('base64')}\n-----END CERTIFICATE-----\n`;
