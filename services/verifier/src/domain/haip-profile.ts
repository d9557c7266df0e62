import { ErrorCode, type ErrorDetail, type ResponseMode } from '@tessera/contracts';
import { AppError } from '@tessera/service-kit';
import type { ResolvedSigner } from './request-signer.js';

/**
 * What HAIP 1.0 (final) asks of a verifier's session that the API otherwise lets a caller choose:
 * response encryption (§5.1 `direct_post.jwt` for redirects, §5.2 `dc_api.jwt` over the DC API)
 * and, for signed requests, the `x509_hash` client identifier prefix (§5) — with the P-256 key,
 * since ES256 is the one algorithm HAIP makes every wallet validate (§7). One problem per path.
 */
export function haipProblems(options: { responseMode: ResponseMode; signer: ResolvedSigner }): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const { responseMode, signer } = options;
  if (responseMode === 'direct_post' || responseMode === 'dc_api')
    problems.push({
      path: '/responseMode',
      message: `/responseMode: HAIP 1.0 requires response encryption: use ${responseMode}.jwt`,
    });
  if (signer.method !== 'X509_P256')
    problems.push({
      path: '/requestSigner/method',
      message: `/requestSigner/method: HAIP 1.0 requires requests signed with an X.509 certificate under x509_hash and ES256: use X509_P256 (the request would be signed with ${signer.method})`,
    });
  else if (signer.clientIdPrefix !== 'x509_hash')
    problems.push({
      path: '/requestSigner/clientIdPrefix',
      message: `/requestSigner/clientIdPrefix: HAIP 1.0 requires the x509_hash client identifier prefix, not ${signer.clientIdPrefix}`,
    });
  return problems;
}

/** 400 NOT_HAIP_COMPLIANT for a session of a `strictHaip` verifier that HAIP 1.0 does not allow. */
export function requireHaipCompliance(options: {
  verifierId: string;
  responseMode: ResponseMode;
  signer: ResolvedSigner;
}): void {
  const problems = haipProblems(options);
  if (problems.length > 0)
    throw new AppError(
      400,
      ErrorCode.NOT_HAIP_COMPLIANT,
      `Verifier "${options.verifierId}" only makes HAIP 1.0 requests (strictHaip): see details.`,
      problems,
    );
}
