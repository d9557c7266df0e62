// Test PKI built directly with @peculiar/x509: shares nothing with the code under test.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as never);

export const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
export const NOW = new Date('2026-01-15T10:00:00Z');
const DAY = 86_400_000;

export interface TestCertificate {
  certificate: x509.X509Certificate;
  keys: webcrypto.CryptoKeyPair;
  /** base64 DER, as in an `x5c` header. */
  x5c: string;
  der: Uint8Array;
  pem: string;
}

export interface CreateCertificateOptions {
  name: string;
  /** Signing CA; self-signed when absent. */
  issuer?: TestCertificate;
  /** basicConstraints cA (default true for CAs created with createCa). */
  ca: boolean;
  pathLength?: number;
  keyUsages: number;
  notBefore?: Date;
  notAfter?: Date;
  /** Further extensions (SAN, extendedKeyUsage, …) after basicConstraints and keyUsage. */
  extraExtensions?: x509.Extension[];
}

let serial = 1;

export async function createCertificate(options: CreateCertificateOptions): Promise<TestCertificate> {
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: (serial++).toString(16).padStart(4, '0'),
    subject: options.name,
    issuer: options.issuer ? options.issuer.certificate.subject : options.name,
    notBefore: options.notBefore ?? new Date(NOW.getTime() - 365 * DAY),
    notAfter: options.notAfter ?? new Date(NOW.getTime() + 365 * DAY),
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: options.issuer ? options.issuer.keys.privateKey : keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(options.ca, options.pathLength, true),
      new x509.KeyUsagesExtension(options.keyUsages, true),
      ...(options.extraExtensions ?? []),
    ],
  });
  const der = new Uint8Array(certificate.rawData);
  return { certificate, keys, der, x5c: Buffer.from(der).toString('base64'), pem: certificate.toString('pem') };
}

export function createCa(
  name: string,
  issuer?: TestCertificate,
  extra: Partial<CreateCertificateOptions> = {},
): Promise<TestCertificate> {
  return createCertificate({
    name,
    ca: true,
    keyUsages: x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
    ...(issuer ? { issuer } : {}),
    ...extra,
  });
}

export function createLeaf(
  name: string,
  issuer: TestCertificate,
  extra: Partial<CreateCertificateOptions> = {},
): Promise<TestCertificate> {
  return createCertificate({ name, issuer, ca: false, keyUsages: x509.KeyUsageFlags.digitalSignature, ...extra });
}

export { x509 };
