import type { IssuerTrust } from './issuer-key.js';
import { x509 } from '../crypto/x509.js';

/** Key identifiers of one certificate, found once per parsed certificate (parses are shared by DER). */
const identifiersByCertificate = new WeakMap<x509.X509Certificate, string[]>();

/**
 * What a DCQL `trusted_authorities` entry of type `aki` (OpenID4VP 1.0
 * §6.1.1) is compared with: for every certificate of the issuer's validated
 * path, the anchor included, its AuthorityKeyIdentifier, and for a CA its
 * SubjectKeyIdentifier too — so naming a CA's key matches what it issued and
 * the CA itself, whether the wallet sent the CA or only the leaf. base64url of
 * the key identifier bytes, as the query carries them. A DID issuer has none.
 */
export function authorityKeyIds(trust: IssuerTrust): string[] {
  if (trust.kind !== 'certificate') return [];
  const ids = new Set<string>();
  for (const certificate of [...trust.path, trust.anchor]) {
    for (const id of keyIdentifiersOf(certificate)) ids.add(id);
  }
  return [...ids];
}

function keyIdentifiersOf(certificate: x509.X509Certificate): string[] {
  let found = identifiersByCertificate.get(certificate);
  if (found) return found;
  found = [];
  const aki = certificate.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId;
  if (aki) found.push(Buffer.from(aki, 'hex').toString('base64url'));
  const ca = certificate.getExtension(x509.BasicConstraintsExtension)?.ca === true;
  const ski = ca ? certificate.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId : undefined;
  if (ski) found.push(Buffer.from(ski, 'hex').toString('base64url'));
  identifiersByCertificate.set(certificate, found);
  return found;
}
