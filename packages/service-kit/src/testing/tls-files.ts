import { writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { readPemBlocks, toPem } from '../pem.js';
import {
  certificateAuthorityName,
  generateCertificateAuthority,
  randomSerialNumber,
} from '../x509/certificate-authority.js';
import { ECDSA_P256, subtle, x509, type WebCryptoKey, type WebCryptoKeyPair } from '../x509/x509.js';

/** Paths of a test CA and a server certificate it issued (PEM; the key PKCS#8, mode 0600). */
export interface TestTlsFiles {
  caFile: string;
  certFile: string;
  keyFile: string;
}

/**
 * Writes a fresh CA and a server certificate for `hosts` (DNS names or IP addresses in
 * its subjectAltName) into `dir`: the TLS tests' stand-in for a deployment's CA, so
 * they run anywhere without openssl. Each call makes a new CA, so a second call gives
 * an "untrusted" CA for the first's server.
 */
export async function writeTestTlsFiles(
  dir: string,
  options: { hosts: string[]; prefix?: string },
): Promise<TestTlsFiles> {
  const now = new Date();
  const ca = await generateCertificateAuthority({ now, commonName: 'Tessera test CA' });
  const caCertificate = new x509.X509Certificate(ca.certificatePem);
  const caKey = (await subtle.importKey('pkcs8', readPemBlocks(ca.privateKeyPem)[0]!.der, ECDSA_P256, false, [
    'sign',
  ])) as WebCryptoKey;
  const keys = (await subtle.generateKey(ECDSA_P256, true, ['sign', 'verify'])) as WebCryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    issuer: caCertificate.subject,
    subject: new x509.Name(certificateAuthorityName(options.hosts[0] ?? 'server')).toString(),
    notBefore: new Date(now.getTime() - 5 * 60_000),
    notAfter: new Date(now.getTime() + 24 * 3600_000),
    signingAlgorithm: ECDSA_P256,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(
        options.hosts.map((host) => ({ type: isIP(host) ? 'ip' : 'dns', value: host })),
      ),
      await x509.AuthorityKeyIdentifierExtension.create(caCertificate),
    ],
  });
  const prefix = options.prefix ?? '';
  const files = {
    caFile: join(dir, `${prefix}ca.crt`),
    certFile: join(dir, `${prefix}server.crt`),
    keyFile: join(dir, `${prefix}server.key`),
  };
  writeFileSync(files.caFile, ca.certificatePem);
  writeFileSync(files.certFile, certificate.toString('pem'));
  writeFileSync(files.keyFile, toPem('PRIVATE KEY', Buffer.from(await subtle.exportKey('pkcs8', keys.privateKey))), {
    mode: 0o600,
  });
  return files;
}
