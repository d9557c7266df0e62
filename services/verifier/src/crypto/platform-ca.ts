import { randomBytes } from 'node:crypto';
import { readPemBlocks, toPem } from '@tessera/service-kit';
import { checkCaCertificate } from './certificate-chain.js';
import { platformCaName } from './certificate-names.js';
import { ECDSA_P256, subtle, x509, type WebCryptoKey, type WebCryptoKeyPair } from './x509.js';

/** The platform's request-signing CA: it issues every organisation's leaf (HAIP: leaves are never self-signed). */
export interface PlatformCa {
  certificate: x509.X509Certificate;
  privateKey: WebCryptoKey;
  certificatePem: string;
}

export interface PlatformCaPem {
  certificatePem: string;
  privateKeyPem: string;
}

const CA_VALIDITY_YEARS = 10;

export function randomSerialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f; // positive INTEGER (RFC 5280 §4.1.2.2)
  return bytes.toString('hex');
}

const DEFAULT_CA_NAME = 'Tessera Platform Request Signing CA';

/** A new self-signed P-256 root for request signing (10 years, path length 0). */
export async function generatePlatformCa(options: { now: Date; commonName?: string }): Promise<PlatformCaPem> {
  const keys = (await subtle.generateKey(ECDSA_P256, true, ['sign', 'verify'])) as WebCryptoKeyPair;
  const certificate = await selfSignPlatformCa({ keys, now: options.now, commonName: options.commonName ?? DEFAULT_CA_NAME });
  const pkcs8 = Buffer.from(await subtle.exportKey('pkcs8', keys.privateKey));
  return { certificatePem: certificate.toString('pem'), privateKeyPem: toPem('PRIVATE KEY', pkcs8) };
}

/**
 * A new certificate for an existing platform CA key: the same key, the current
 * name shape (one attribute per RDN), a new serial and validity from `now`. Used
 * to replace a stored CA certificate of the old name shape (`openKeyStore`).
 */
export async function reissuePlatformCaCertificate(ca: PlatformCa, now: Date): Promise<string> {
  const publicKey = (await ca.certificate.publicKey.export(ECDSA_P256, ['verify'])) as WebCryptoKey;
  const commonName = ca.certificate.subjectName.getField('CN')[0] ?? DEFAULT_CA_NAME;
  const certificate = await selfSignPlatformCa({ keys: { publicKey, privateKey: ca.privateKey }, now, commonName });
  return certificate.toString('pem');
}

async function selfSignPlatformCa(options: { keys: WebCryptoKeyPair; now: Date; commonName: string }): Promise<x509.X509Certificate> {
  const notAfter = new Date(options.now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + CA_VALIDITY_YEARS);
  return x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerialNumber(),
    name: platformCaName(options.commonName),
    notBefore: new Date(options.now.getTime() - 5 * 60_000),
    notAfter,
    signingAlgorithm: ECDSA_P256,
    keys: options.keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(options.keys.publicKey),
    ],
  });
}

/**
 * Loads a CA from PEM and checks it can act as one: a CA certificate by the
 * service's one rule (`checkCaCertificate`: cA and keyCertSign), currently valid,
 * an ECDSA P-256 key, and a private key that matches the certificate.
 */
export async function loadPlatformCa(pem: PlatformCaPem, now: Date): Promise<PlatformCa> {
  let certificate: x509.X509Certificate;
  try {
    certificate = new x509.X509Certificate(pem.certificatePem.trim());
  } catch (error) {
    throw new Error('platform CA certificate: not a PEM X.509 certificate', { cause: error });
  }
  const notCa = checkCaCertificate(certificate);
  if (notCa) throw new Error(`platform CA certificate: the certificate ${notCa}`);
  if (now < certificate.notBefore || now > certificate.notAfter) throw new Error('platform CA certificate: not valid now');
  const algorithm = certificate.publicKey.algorithm as { name: string; namedCurve?: string };
  if (algorithm.name !== 'ECDSA' || algorithm.namedCurve !== 'P-256') throw new Error('platform CA certificate: the key must be ECDSA P-256');
  let privateKey: WebCryptoKey;
  try {
    const der = readPemBlocks(pem.privateKeyPem)[0]?.der;
    if (!der) throw new Error('not PEM');
    privateKey = (await subtle.importKey('pkcs8', der, ECDSA_P256, false, ['sign'])) as WebCryptoKey;
  } catch (error) {
    throw new Error('platform CA key: not a PKCS#8 PEM ECDSA P-256 private key', { cause: error });
  }
  const probe = randomBytes(32);
  const signature = await subtle.sign(ECDSA_P256, privateKey, probe);
  const publicKey = await certificate.publicKey.export(ECDSA_P256, ['verify']);
  if (!(await subtle.verify(ECDSA_P256, publicKey as WebCryptoKey, signature, probe))) {
    throw new Error('platform CA key: does not match the CA certificate');
  }
  return { certificate, privateKey, certificatePem: certificate.toString('pem') };
}
