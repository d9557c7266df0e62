import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readPemBlocks, toPem } from '../pem.js';
import { ECDSA_P256, subtle, x509, type WebCryptoKey, type WebCryptoKeyPair } from './x509.js';

/**
 * A P-256 certificate authority the platform runs itself (the verifier's request-signing
 * CA, the ecosystem's trust-list CA): generated, loaded from configuration and checked
 * the same way everywhere. Names have one attribute per RDN (O, then CN): strict parsers
 * (Python's `cryptography`, Rust's x509 crates) refuse a multi-valued RDN out of DER order.
 */
export interface CertificateAuthority {
  certificate: x509.X509Certificate;
  privateKey: WebCryptoKey;
  certificatePem: string;
}

export interface CertificateAuthorityPem {
  certificatePem: string;
  privateKeyPem: string;
}

const CA_VALIDITY_YEARS = 10;

/** 16 random bytes, a positive INTEGER (RFC 5280 §4.1.2.2). */
export function randomSerialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
}

/** The subject of a platform CA: O=Tessera, then CN, one attribute per RDN. */
export function certificateAuthorityName(commonName: string): x509.JsonName {
  return [{ O: ['Tessera'] }, { CN: [commonName] }];
}

/** A new self-signed P-256 root (10 years, path length 0), as PEM (PKCS#8 key). */
export async function generateCertificateAuthority(options: {
  now: Date;
  commonName: string;
}): Promise<CertificateAuthorityPem> {
  const keys = (await subtle.generateKey(ECDSA_P256, true, ['sign', 'verify'])) as WebCryptoKeyPair;
  const certificate = await selfSignCertificateAuthority({ keys, now: options.now, commonName: options.commonName });
  const pkcs8 = Buffer.from(await subtle.exportKey('pkcs8', keys.privateKey));
  return { certificatePem: certificate.toString('pem'), privateKeyPem: toPem('PRIVATE KEY', pkcs8) };
}

/** A self-signed CA certificate for `keys`, valid from five minutes before `now` for ten years. */
export async function selfSignCertificateAuthority(options: {
  keys: WebCryptoKeyPair;
  now: Date;
  commonName: string;
}): Promise<x509.X509Certificate> {
  const notAfter = new Date(options.now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + CA_VALIDITY_YEARS);
  return x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerialNumber(),
    name: certificateAuthorityName(options.commonName),
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

export interface LoadCertificateAuthorityOptions {
  now: Date;
  /** Starts every error message, e.g. `platform CA` → "platform CA certificate: not valid now". */
  label: string;
  /** What to call the certificate and the key in messages instead (the variables they came from); default `<label> certificate`, `<label> key`. */
  names?: { certificate: string; key: string };
  /** A further rule of the caller (e.g. a certificate profile); returns what is wrong, phrased after "the certificate". */
  check?: (certificate: x509.X509Certificate) => string | undefined;
}

/**
 * Loads a CA from PEM and checks it can act as one: a CA certificate (cA and
 * keyCertSign, plus the caller's `check`), currently valid, an ECDSA P-256 key, and
 * a private key that matches the certificate. Errors never quote the key.
 */
export async function loadCertificateAuthority(
  pem: CertificateAuthorityPem,
  options: LoadCertificateAuthorityOptions,
): Promise<CertificateAuthority> {
  const { label, now } = options;
  const certificateName = options.names?.certificate ?? `${label} certificate`;
  const keyName = options.names?.key ?? `${label} key`;
  let certificate: x509.X509Certificate;
  try {
    certificate = new x509.X509Certificate(pem.certificatePem.trim());
  } catch (error) {
    throw new Error(`${certificateName}: not a PEM X.509 certificate`, { cause: error });
  }
  const problem = caCapabilityProblem(certificate) ?? options.check?.(certificate);
  if (problem) throw new Error(`${certificateName}: the certificate ${problem}`);
  if (now < certificate.notBefore || now > certificate.notAfter)
    throw new Error(
      `${certificateName}: not valid now (valid from ${certificate.notBefore.toISOString()} to ${certificate.notAfter.toISOString()})`,
    );
  const algorithm = certificate.publicKey.algorithm as { name: string; namedCurve?: string };
  if (algorithm.name !== 'ECDSA' || algorithm.namedCurve !== 'P-256')
    throw new Error(`${certificateName}: the key must be ECDSA P-256`);
  let privateKey: WebCryptoKey;
  try {
    const der = readPemBlocks(pem.privateKeyPem)[0]?.der;
    if (!der) throw new Error('not PEM');
    privateKey = (await subtle.importKey('pkcs8', der, ECDSA_P256, false, ['sign'])) as WebCryptoKey;
  } catch (error) {
    throw new Error(`${keyName}: not a PKCS#8 PEM ECDSA P-256 private key`, { cause: error });
  }
  const probe = randomBytes(32);
  const signature = await subtle.sign(ECDSA_P256, privateKey, probe);
  const publicKey = await certificate.publicKey.export(ECDSA_P256, ['verify']);
  if (!(await subtle.verify(ECDSA_P256, publicKey as WebCryptoKey, signature, probe))) {
    throw new Error(`${keyName}: does not match the ${label} certificate`);
  }
  return { certificate, privateKey, certificatePem: certificate.toString('pem') };
}

function caCapabilityProblem(certificate: x509.X509Certificate): string | undefined {
  if (!certificate.getExtension(x509.BasicConstraintsExtension)?.ca)
    return 'is not a CA certificate (basicConstraints cA is not true)';
  const usage = certificate.getExtension(x509.KeyUsagesExtension);
  if (!usage || !(usage.usages & x509.KeyUsageFlags.keyCertSign)) return 'lacks keyUsage keyCertSign';
  return undefined;
}

/**
 * A PEM given inline (`inline`, where environment variables often carry escaped
 * newlines) or as a file path; undefined when neither is set. A file that cannot be
 * read throws an error naming the variable, never the content.
 */
export function readConfiguredPem(
  variable: string,
  inline: string | undefined,
  file: string | undefined,
): string | undefined {
  if (inline) return inline.replace(/\\n/g, '\n');
  if (!file) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`${variable}_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, {
      cause: error,
    });
  }
}
