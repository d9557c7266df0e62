import type { JWK } from 'jose';
import { hasMultiValuedRdn, requestSigningLeafName } from './certificate-names.js';
import type { PlatformCa } from './platform-ca.js';
import { randomSerialNumber } from './platform-ca.js';
import { webCryptoPublicKey, type KeyType } from './signing-key.js';
import { parseCertificateDer } from './parsed-certificates.js';
import { ECDSA_P256, x509 } from './x509.js';

const LEAF_VALIDITY_DAYS = 365;
/** A leaf closer than this to its end is replaced at next use. */
const RENEW_BEFORE_DAYS = 30;
const DAY_MS = 86_400_000;

export interface IssueLeafOptions {
  ca: PlatformCa;
  publicJwk: JWK;
  keyType: KeyType;
  /** Host of PUBLIC_BASE_URL: the SAN dNSName, and so the `x509_san_dns` client identifier. */
  host: string;
  orgId: string;
  now: Date;
}

/** Issues an organisation's request-signing leaf under the platform CA; returns its DER in base64 (an x5c entry). */
export async function issueLeafCertificate(options: IssueLeafOptions): Promise<string> {
  const publicKey = await webCryptoPublicKey(options.publicJwk, options.keyType);
  const caEnd = options.ca.certificate.notAfter.getTime();
  const notAfter = new Date(Math.min(options.now.getTime() + LEAF_VALIDITY_DAYS * DAY_MS, caEnd));
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject: requestSigningLeafName({ host: options.host, orgId: options.orgId }),
    issuer: options.ca.certificate.subjectName,
    notBefore: new Date(options.now.getTime() - 5 * 60_000),
    notAfter,
    signingAlgorithm: ECDSA_P256,
    publicKey,
    signingKey: options.ca.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: options.host }]),
      await x509.SubjectKeyIdentifierExtension.create(publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(options.ca.certificate),
    ],
  });
  return Buffer.from(certificate.rawData).toString('base64');
}

export interface LeafRenewalOptions {
  chain: string[];
  ca: PlatformCa;
  host: string;
  now: Date;
}

/**
 * True when a platform-issued leaf must be replaced: it is near its end, names
 * another host than PUBLIC_BASE_URL's, was issued by another CA (the CA was
 * replaced in config, or re-issued), or has the old multi-valued RDN subject.
 */
export async function leafNeedsRenewal(options: LeafRenewalOptions): Promise<boolean> {
  const [leafDer] = options.chain;
  if (!leafDer) return true;
  const leaf = parseCertificateDer(leafDer);
  if (options.now >= leafRenewalDate({ chain: options.chain, ca: options.ca })) return true;
  if (!sanDnsNamesOf(leaf).includes(options.host)) return true;
  if (leaf.issuer !== options.ca.certificate.subject) return true;
  // Issued before names had one attribute per RDN: strict parsers refuse it.
  if (hasMultiValuedRdn(leaf.subjectName)) return true;
  return !(await leaf.verify({ publicKey: options.ca.certificate.publicKey, signatureOnly: true }));
}

/**
 * When a leaf becomes due for renewal by time alone: RENEW_BEFORE_DAYS before its
 * end, unless the CA itself ends first (a leaf cannot outlive it: renewing would
 * not help), and in any case at its end. Every other reason of
 * `leafNeedsRenewal` depends on the chain and the configuration only.
 */
export function leafRenewalDate(options: { chain: string[]; ca: PlatformCa }): Date {
  const [leafDer] = options.chain;
  if (!leafDer) return new Date(0);
  const leaf = parseCertificateDer(leafDer);
  const end = leaf.notAfter.getTime();
  return new Date(leaf.notAfter < options.ca.certificate.notAfter ? end - RENEW_BEFORE_DAYS * DAY_MS : end);
}

export function sanDnsNamesOf(certificate: x509.X509Certificate): string[] {
  const san = certificate.getExtension(x509.SubjectAlternativeNameExtension);
  return san ? san.names.items.filter((name) => name.type === 'dns').map((name) => name.value) : [];
}
