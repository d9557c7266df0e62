import type { CertificatePurpose } from './certificate-purposes.js';
import { x509 } from './x509.js';

/**
 * The algorithm and extension rules every certificate the service relies on
 * must meet, whatever its place in a path (RFC 5280 §4.2; NIST SP 800-131A).
 */

/**
 * Extensions this service understands when they are critical: the ones the
 * chain validator processes (basicConstraints, keyUsage, extKeyUsage,
 * subjectAltName) and the ones that carry no constraint it would have to
 * enforce (key identifiers; certificatePolicies, since no policy is required
 * of any path). Any other critical extension — nameConstraints and the policy
 * constraints included, which are not enforced — makes the certificate
 * unusable (RFC 5280 §4.2: "MUST reject the certificate if it encounters a
 * critical extension it does not recognize").
 */
const UNDERSTOOD_CRITICAL_EXTENSIONS = new Set([
  '2.5.29.19', // basicConstraints
  '2.5.29.15', // keyUsage
  '2.5.29.37', // extKeyUsage
  '2.5.29.17', // subjectAltName
  '2.5.29.14', // subjectKeyIdentifier
  '2.5.29.35', // authorityKeyIdentifier
  '2.5.29.32', // certificatePolicies
]);

/** Smallest RSA modulus accepted (NIST SP 800-131A: 1024-bit RSA is disallowed). */
export const MIN_RSA_MODULUS_BITS = 2048;

/** Hashes too weak to carry a certificate signature (SHA-1 collisions are practical; MD2/4/5 long broken). */
const WEAK_SIGNATURE_HASHES = new Set(['SHA-1', 'MD2', 'MD4', 'MD5']);

export interface CheckCertificateProfileOptions {
  /**
   * Whether the certificate's own signature is relied on. False for a trust
   * anchor: its self-signature proves nothing (RFC 5280 §6.1: an anchor is
   * trusted by configuration), so an old SHA-1 self-signed root is still usable.
   */
  signatureRelied: boolean;
}

/** The first problem of `certificate` with the profile, or undefined. */
export function checkCertificateProfile(
  certificate: x509.X509Certificate,
  options: CheckCertificateProfileOptions,
): string | undefined {
  for (const extension of certificate.extensions) {
    if (extension.critical && !UNDERSTOOD_CRITICAL_EXTENSIONS.has(extension.type))
      return `has the unknown critical extension ${extension.type}`;
  }
  let key: { name?: string; modulusLength?: number };
  try {
    key = certificate.publicKey.algorithm as typeof key;
  } catch {
    return 'has a public key that cannot be read';
  }
  if (key.name?.startsWith('RSA') && (key.modulusLength ?? 0) < MIN_RSA_MODULUS_BITS) {
    return `has an RSA key of ${key.modulusLength ?? 'unknown'} bits (at least ${MIN_RSA_MODULUS_BITS} are required)`;
  }
  if (options.signatureRelied) {
    const hash = signatureHashOf(certificate);
    if (hash && WEAK_SIGNATURE_HASHES.has(hash)) return `is signed with ${hash}, which is not accepted`;
  }
  return undefined;
}

/**
 * Why the leaf may not be used for `purpose`, or undefined: a leaf without
 * extKeyUsage is unrestricted; one with it must list a purpose of the use.
 */
export function checkExtendedKeyUsage(leaf: x509.X509Certificate, purpose: CertificatePurpose): string | undefined {
  const extension = leaf.getExtension(x509.ExtendedKeyUsageExtension);
  if (!extension) return undefined;
  const usages = extension.usages.map(String);
  if (usages.some((usage) => purpose.extendedKeyUsages.includes(usage))) return undefined;
  return `has extendedKeyUsage ${usages.join(', ')}, none of which allows its use as ${purpose.name} (${purpose.extendedKeyUsages.join(' or ')})`;
}

function signatureHashOf(certificate: x509.X509Certificate): string | undefined {
  const algorithm = certificate.signatureAlgorithm as { hash?: { name?: string } | string };
  const hash = typeof algorithm.hash === 'string' ? algorithm.hash : algorithm.hash?.name;
  return hash?.toUpperCase();
}
