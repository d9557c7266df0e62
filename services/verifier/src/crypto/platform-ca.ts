import {
  generateCertificateAuthority,
  loadCertificateAuthority,
  randomSerialNumber,
  selfSignCertificateAuthority,
  type CertificateAuthority,
  type CertificateAuthorityPem,
} from '@tessera/service-kit/x509';
import { checkCaCertificate } from './certificate-chain.js';
import { ECDSA_P256, type WebCryptoKey } from './x509.js';

// The CA mechanics (generation, loading, checks) are the kit's, shared with the
// ecosystem's trust-list CA; this file adds the verifier's name and certificate profile.

/** The platform's request-signing CA: it issues every organisation's leaf (HAIP: leaves are never self-signed). */
export type PlatformCa = CertificateAuthority;
export type PlatformCaPem = CertificateAuthorityPem;

export { randomSerialNumber };

const DEFAULT_CA_NAME = 'Tessera Platform Request Signing CA';

/** A new self-signed P-256 root for request signing (10 years, path length 0). */
export async function generatePlatformCa(options: { now: Date; commonName?: string }): Promise<PlatformCaPem> {
  return generateCertificateAuthority({ now: options.now, commonName: options.commonName ?? DEFAULT_CA_NAME });
}

/**
 * A new certificate for an existing platform CA key: the same key, the current
 * name shape (one attribute per RDN), a new serial and validity from `now`. Used
 * to replace a stored CA certificate of the old name shape (`openKeyStore`).
 */
export async function reissuePlatformCaCertificate(ca: PlatformCa, now: Date): Promise<string> {
  const publicKey = (await ca.certificate.publicKey.export(ECDSA_P256, ['verify'])) as WebCryptoKey;
  const commonName = ca.certificate.subjectName.getField('CN')[0] ?? DEFAULT_CA_NAME;
  const certificate = await selfSignCertificateAuthority({
    keys: { publicKey, privateKey: ca.privateKey },
    now,
    commonName,
  });
  return certificate.toString('pem');
}

/**
 * Loads a CA from PEM and checks it can act as one: a CA certificate by the
 * service's one rule (`checkCaCertificate`: cA, keyCertSign and the certificate
 * profile), currently valid, an ECDSA P-256 key, and a private key that matches.
 */
export async function loadPlatformCa(pem: PlatformCaPem, now: Date): Promise<PlatformCa> {
  return loadCertificateAuthority(pem, { now, label: 'platform CA', check: checkCaCertificate });
}
