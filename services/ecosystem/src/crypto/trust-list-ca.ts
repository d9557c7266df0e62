import { StartupError } from '@tessera/service-kit';
import {
  ensureDevCertificateAuthority,
  loadCertificateAuthority,
  readConfiguredPem,
  type CertificateAuthority,
} from '@tessera/service-kit/x509';

/** One PEM as configured: inline, or the path of a file holding it. */
export interface ConfiguredPem {
  pem?: string | undefined;
  file?: string | undefined;
}

/**
 * Where the trust-list CA comes from (config.ts's `trustListCaSourceOf` reads it from
 * TRUST_LIST_CA_CERT_PEM[_FILE] and TRUST_LIST_CA_KEY_PEM[_FILE]; problems name those variables).
 */
export interface TrustListCaSource {
  certificate: ConfiguredPem;
  key: ConfiguredPem;
  /** Development only: without a configured CA, the one generated once under this data directory. */
  developmentDataDir?: string | undefined;
}

/** The common name of the development CA (production names its own). */
export const DEV_TRUST_LIST_CA_NAME = 'Tessera Trust List CA (development)';

/**
 * A start step (server.ts): the platform's trust-list CA, which certifies the keys the
 * signed lists are signed with and is published at /v1/trust-list-ca.pem. The
 * configured one (inline PEM or files; config.ts requires it outside development),
 * else in development the one generated once under DATA_DIR/trust-list-ca/. A CA that
 * cannot act as one (not a CA, expired, not P-256, a key that does not match) stops the
 * start with a StartupError naming the variable; the key is never quoted.
 */
export async function openTrustListCa(source: TrustListCaSource, now: Date): Promise<CertificateAuthority> {
  const names = {
    certificate: source.certificate.file ? 'TRUST_LIST_CA_CERT_PEM_FILE' : 'TRUST_LIST_CA_CERT_PEM',
    key: source.key.file ? 'TRUST_LIST_CA_KEY_PEM_FILE' : 'TRUST_LIST_CA_KEY_PEM',
  };
  try {
    const certificatePem = readConfiguredPem('TRUST_LIST_CA_CERT_PEM', source.certificate.pem, source.certificate.file);
    const privateKeyPem = readConfiguredPem('TRUST_LIST_CA_KEY_PEM', source.key.pem, source.key.file);
    const pem =
      certificatePem && privateKeyPem
        ? { certificatePem, privateKeyPem }
        : source.developmentDataDir !== undefined
          ? await ensureDevCertificateAuthority(source.developmentDataDir, {
              directory: 'trust-list-ca',
              commonName: DEV_TRUST_LIST_CA_NAME,
              now,
            })
          : undefined;
    // config.ts refuses this combination; kept as a guard for callers that skip it.
    if (!pem) throw new Error('TRUST_LIST_CA_CERT_PEM, TRUST_LIST_CA_KEY_PEM: required outside development mode');
    return await loadCertificateAuthority(pem, { now, label: 'trust-list CA', names });
  } catch (error) {
    throw new StartupError(`invalid trust-list CA: ${(error as Error).message}`, { cause: error });
  }
}
