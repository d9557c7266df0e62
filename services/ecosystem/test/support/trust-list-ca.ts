import { generateCertificateAuthority, type CertificateAuthorityPem } from '@tessera/service-kit/x509';

let generated: Promise<CertificateAuthorityPem> | undefined;

/** The trust-list CA of the test harnesses: generated once per test file, given to the app as production configuration is. */
export function testTrustListCa(): Promise<CertificateAuthorityPem> {
  generated ??= generateCertificateAuthority({ now: new Date(), commonName: 'Tessera Trust List CA (tests)' });
  return generated;
}

/** The CA as the environment gives it: inline PEM. */
export async function trustListCaEnv(): Promise<Record<string, string>> {
  const ca = await testTrustListCa();
  return { TRUST_LIST_CA_CERT_PEM: ca.certificatePem, TRUST_LIST_CA_KEY_PEM: ca.privateKeyPem };
}
