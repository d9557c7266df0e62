import { createHash } from 'node:crypto';
import type { SigningCertificate } from '@tessera/contracts';
import { toPem } from '@tessera/service-kit';
import { accessCertificateIdentifier } from '../crypto/access-certificate-identifier.js';
import { sanDnsNamesOf } from '../crypto/leaf-certificate.js';
import { x509 } from '../crypto/x509.js';
import { x509HashOf } from '../domain/client-id.js';
import type { SigningChain } from '../use-cases/get-signing-certificate.js';

/** The public view of a request-signing chain (never the key). */
export function toSigningCertificate(options: SigningChain): SigningCertificate {
  const leafDer = options.chain[0]!;
  const leaf = new x509.X509Certificate(Buffer.from(leafDer, 'base64'));
  const organizationIdentifier = accessCertificateIdentifier(leaf);
  return {
    keyType: options.keyType,
    source: options.source,
    subject: leaf.subject,
    ...(organizationIdentifier ? { organizationIdentifier } : {}),
    issuer: leaf.issuer,
    notBefore: leaf.notBefore.toISOString(),
    notAfter: leaf.notAfter.toISOString(),
    sanDnsNames: sanDnsNamesOf(leaf),
    fingerprint: createHash('sha256').update(Buffer.from(leafDer, 'base64')).digest('hex'),
    x509Hash: x509HashOf(leafDer),
    certificateChainPem: options.chain.map((der) => toPem('CERTIFICATE', Buffer.from(der, 'base64'))).join(''),
  };
}
