import { ORGANIZATION_IDENTIFIER_OID } from './certificate-signing-request.js';
import type { x509 } from './x509.js';

/** X.520 serialNumber: ETSI EN 319 412-1 puts a natural person's semantics identifier there. */
const SERIAL_NUMBER_OID = '2.5.4.5';

/**
 * The relying-party identifier an access certificate (WRPAC, ETSI TS 119 411-8) carries: the
 * subject's organizationIdentifier for a legal person, else its serialNumber (a natural person's
 * EN 319 412-1 identifier). A registration certificate's `sub` must equal it. Undefined when the
 * subject has neither (a platform-issued leaf, which names no organisation identifier).
 */
export function accessCertificateIdentifier(certificate: x509.X509Certificate): string | undefined {
  const name = certificate.subjectName;
  return name.getField(ORGANIZATION_IDENTIFIER_OID)[0] ?? name.getField(SERIAL_NUMBER_OID)[0];
}
