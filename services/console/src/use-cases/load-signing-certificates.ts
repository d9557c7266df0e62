import type { CertificateKeyType, SigningCertificate } from '@tessera/contracts';
import { succeeded, type ServiceProblem, type ServiceResult } from '../domain/service-problem.js';
import type { VerifierApi } from '../network/verifier-api.js';

export interface LoadSigningCertificatesDeps {
  verifier: Pick<VerifierApi, 'getSigningCertificate' | 'getPlatformCa'>;
}

export interface SigningCertificates {
  /** Per key type: the certificate in force, or why it could not be read. */
  certificates: Array<{ keyType: CertificateKeyType; certificate?: SigningCertificate; problem?: ServiceProblem }>;
  /** The platform CA that platform leaves chain to (what wallets pin). */
  platformCaPem?: string;
}

/**
 * The organisation's request-signing certificates in force, for P-256 and Ed25519
 * (the verifier issues a platform leaf on first use), and the platform CA.
 */
export async function loadSigningCertificates(
  deps: LoadSigningCertificatesDeps,
  input: { token: string; orgId: string },
): Promise<ServiceResult<SigningCertificates>> {
  const keyTypes: CertificateKeyType[] = ['P256', 'ED25519'];
  const [platformCa, ...certificates] = await Promise.all([
    deps.verifier.getPlatformCa(),
    ...keyTypes.map((keyType) => deps.verifier.getSigningCertificate(input.token, input.orgId, keyType)),
  ]);
  // No role in the organisation: the page is the refusal.
  const refused = certificates.find(
    (result) => !result.ok && (result.problem.status === 401 || result.problem.status === 403),
  );
  if (refused && !refused.ok) return refused;
  return succeeded({
    certificates: certificates.map((result, index) => ({
      keyType: keyTypes[index]!,
      ...(result.ok ? { certificate: result.value } : { problem: result.problem }),
    })),
    ...(platformCa.ok ? { platformCaPem: platformCa.value.body } : {}),
  });
}
