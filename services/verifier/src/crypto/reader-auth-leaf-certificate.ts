import type { JWK } from 'jose';
import { MDOC_READER_AUTH_EKU } from './certificate-purposes.js';
import { leafNeedsRenewal, type LeafRenewalOptions } from './leaf-certificate.js';
import { parseCertificateDer } from './parsed-certificates.js';
import { randomSerialNumber, type PlatformCa } from './platform-ca.js';
import { webCryptoPublicKey } from './signing-key.js';
import { ECDSA_P256, x509 } from './x509.js';

const LEAF_VALIDITY_DAYS = 365;
const DAY_MS = 86_400_000;

export interface IssueReaderAuthLeafOptions {
  ca: PlatformCa;
  /** The organisation's P-256 signing key (the key that signs its request objects). */
  publicJwk: JWK;
  /** Host of PUBLIC_BASE_URL, in the SAN as on the request-signing leaf. */
  host: string;
  orgId: string;
  now: Date;
}

/** A reader-authentication leaf's subject: O (the organisation), OU, CN (the host), one attribute per RDN. */
export function readerAuthLeafName(options: { host: string; orgId: string }): x509.JsonName {
  return [{ O: [options.orgId.slice(0, 64)] }, { OU: ['mdoc reader authentication'] }, { CN: [options.host] }];
}

/**
 * Issues an organisation's mdoc reader-authentication certificate under the
 * platform CA, for the key its `org-iso-mdoc` ReaderAuths are signed with:
 * the ISO/IEC 18013-5 Annex B reader profile — keyUsage digitalSignature and
 * extendedKeyUsage mdoc reader authentication (`1.0.18013.5.1.6`), both
 * critical, subject and authority key identifiers — plus the SAN dNSName of
 * the request-signing leaf (as deployed online readers carry it). Returns its
 * DER in base64 (an x5chain entry). The platform CA publishes no CRL, so the
 * profile's optional CRL distribution point is absent.
 */
export async function issueReaderAuthLeafCertificate(options: IssueReaderAuthLeafOptions): Promise<string> {
  const publicKey = await webCryptoPublicKey(options.publicJwk, 'P256');
  const caEnd = options.ca.certificate.notAfter.getTime();
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject: readerAuthLeafName({ host: options.host, orgId: options.orgId }),
    issuer: options.ca.certificate.subjectName,
    notBefore: new Date(options.now.getTime() - 5 * 60_000),
    notAfter: new Date(Math.min(options.now.getTime() + LEAF_VALIDITY_DAYS * DAY_MS, caEnd)),
    signingAlgorithm: ECDSA_P256,
    publicKey,
    signingKey: options.ca.privateKey,
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([MDOC_READER_AUTH_EKU], true),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: options.host }]),
      await x509.SubjectKeyIdentifierExtension.create(publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(options.ca.certificate),
    ],
  });
  return Buffer.from(certificate.rawData).toString('base64');
}

/**
 * True when a platform-issued reader leaf must be replaced: every reason of
 * the request-signing leaf (`leafNeedsRenewal`: near its end, another host,
 * another CA, old name shape), or it does not carry the reader-authentication purpose.
 */
export async function readerAuthLeafNeedsRenewal(options: LeafRenewalOptions): Promise<boolean> {
  if (await leafNeedsRenewal(options)) return true;
  const eku = parseCertificateDer(options.chain[0]!).getExtension(x509.ExtendedKeyUsageExtension);
  return !eku?.usages.map(String).includes(MDOC_READER_AUTH_EKU);
}
