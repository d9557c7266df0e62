import { StartupError } from '@tessera/service-kit';
import {
  ensureDevCertificateAuthority,
  loadCertificateAuthority,
  readConfiguredPem,
  type CertificateAuthority,
} from '@tessera/service-kit/x509';
import type { EcosystemConfig } from '../config.js';

export type TrustListCaConfig = Pick<
  EcosystemConfig,
  | 'NODE_ENV'
  | 'DATA_DIR'
  | 'TRUST_LIST_CA_CERT_PEM'
  | 'TRUST_LIST_CA_CERT_PEM_FILE'
  | 'TRUST_LIST_CA_KEY_PEM'
  | 'TRUST_LIST_CA_KEY_PEM_FILE'
>;

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
export async function openTrustListCa(config: TrustListCaConfig, now: Date): Promise<CertificateAuthority> {
  const names = {
    certificate: config.TRUST_LIST_CA_CERT_PEM_FILE ? 'TRUST_LIST_CA_CERT_PEM_FILE' : 'TRUST_LIST_CA_CERT_PEM',
    key: config.TRUST_LIST_CA_KEY_PEM_FILE ? 'TRUST_LIST_CA_KEY_PEM_FILE' : 'TRUST_LIST_CA_KEY_PEM',
  };
  try {
    const certificatePem = readConfiguredPem(
      'TRUST_LIST_CA_CERT_PEM',
      config.TRUST_LIST_CA_CERT_PEM,
      config.TRUST_LIST_CA_CERT_PEM_FILE,
    );
    const privateKeyPem = readConfiguredPem(
      'TRUST_LIST_CA_KEY_PEM',
      config.TRUST_LIST_CA_KEY_PEM,
      config.TRUST_LIST_CA_KEY_PEM_FILE,
    );
    const pem =
      certificatePem && privateKeyPem
        ? { certificatePem, privateKeyPem }
        : config.NODE_ENV === 'development'
          ? await ensureDevCertificateAuthority(config.DATA_DIR, {
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
