import { createHash } from 'node:crypto';
import type { ReaderCertificate } from '@tessera/contracts';
import { toPem } from '@tessera/service-kit';
import { sanDnsNamesOf } from '../crypto/leaf-certificate.js';
import { x509 } from '../crypto/x509.js';

/** The public view of a reader-authentication chain (never the key). */
export function toReaderCertificate(options: { source: 'platform' | 'imported'; chain: string[] }): ReaderCertificate {
  const leafDer = Buffer.from(options.chain[0]!, 'base64');
  const leaf = new x509.X509Certificate(leafDer);
  const eku = leaf.getExtension(x509.ExtendedKeyUsageExtension);
  return {
    source: options.source,
    subject: leaf.subject,
    issuer: leaf.issuer,
    notBefore: leaf.notBefore.toISOString(),
    notAfter: leaf.notAfter.toISOString(),
    sanDnsNames: sanDnsNamesOf(leaf),
    extendedKeyUsages: eku ? eku.usages.map(String) : [],
    fingerprint: createHash('sha256').update(leafDer).digest('hex'),
    certificateChainPem: options.chain.map((der) => toPem('CERTIFICATE', Buffer.from(der, 'base64'))).join(''),
  };
}
