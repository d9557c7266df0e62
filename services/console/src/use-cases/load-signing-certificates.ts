import type { ReaderCertificate, SigningCertificatesEntry } from '@tessera/contracts';
import { succeeded, type ServiceProblem, type ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface LoadSigningCertificatesDeps {
  verifier: Pick<VerifierApi, 'listSigningCertificates' | 'getReaderCertificate' | 'getPlatformCa'>;
}

export interface SigningCertificates {
  /** Per key type (P-256, Ed25519): the signer in force and the certificate signing request waiting for its chain. */
  entries: SigningCertificatesEntry[];
  /** The chain `org-iso-mdoc` ReaderAuths carry, or why it could not be read. */
  reader: { certificate?: ReaderCertificate; problem?: ServiceProblem };
  /** The platform CA that platform leaves chain to (what wallets pin). */
  platformCaPem?: string;
}

/**
 * The organisation's request signing as the verifier answers it (`GET certificates`: it
 * issues the platform leaf on first use), its mdoc reader chain, and the platform CA.
 * The signers are the page: their refusal (no role here) is the page's refusal; the
 * reader chain and the CA are asides shown as unavailable when they fail.
 */
export async function loadSigningCertificates(
  deps: LoadSigningCertificatesDeps,
  input: { token: string; orgId: string },
): Promise<ServiceResult<SigningCertificates>> {
  const [entries, reader, platformCa] = await Promise.all([
    deps.verifier.listSigningCertificates(input.token, input.orgId),
    deps.verifier.getReaderCertificate(input.token, input.orgId),
    deps.verifier.getPlatformCa(),
  ]);
  if (!entries.ok) return entries;
  return succeeded({
    entries: entries.value,
    reader: reader.ok ? { certificate: reader.value } : { problem: reader.problem },
    ...(platformCa.ok ? { platformCaPem: platformCa.value.body } : {}),
  });
}
