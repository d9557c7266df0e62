import { ErrorCode, type OverAskingPath } from '@tessera/contracts';
import { AppError } from '@tessera/service-kit';
import type { VerifierRow } from '../../db/schema.js';
import type { SessionRegistration } from '../../db/verifiers.js';
import { evaluateOverAsking } from '../../domain/over-asking.js';
import { registrationCertificateStatus, type RegistrationSummary } from '../../domain/registration-summary.js';
import { buildVerifierInfo, type VerifierInfoAttestation } from '../../domain/verifier-info.js';
import type { VerifierMetrics } from '../../metrics/verifier-metrics.js';

// Shared step: a query judged against what its verifier registered (issue 25): session
// creation (both paths) and template saves naming a verifier.

export interface JudgeRegisteredUseDeps {
  metrics: Pick<VerifierMetrics, 'countOverAsking'>;
}

export interface JudgeRegisteredUseInput {
  verifier: VerifierRow;
  /** The verifier's registration certificate, or null. */
  registration: SessionRegistration | null;
  /** The query as given (valid; `combine` may be there). */
  dcqlQuery: Record<string, unknown>;
  /** JSON Pointer of the query in the request body (`/dcql`) or the template (`/templateJson/dcql/query`). */
  pointer: string;
  now: Date;
  subject: 'session' | 'template';
}

export interface RegisteredUseJudgement {
  /** `verifier_info` for the request object: the certificate and the credential queries its intended use covers. */
  verifierInfo: VerifierInfoAttestation[] | null;
  /** Under the `warn` policy, what the query asks beyond the registration; null when nothing (or no registration). */
  overAsking: OverAskingPath[] | null;
}

/**
 * A verifier without a registration certificate, or whose certificate has expired (it is no
 * longer sent), judges nothing. Otherwise every credential type and claim the query asks for
 * must be in a registered intended use: under the `refuse` policy (the default) anything outside
 * is 400 OVER_ASKING with one `details` entry per path; under `warn` the paths are answered
 * (stored on the session, shown on the template). Both are counted.
 */
export function judgeRegisteredUse(
  deps: JudgeRegisteredUseDeps,
  input: JudgeRegisteredUseInput,
): RegisteredUseJudgement {
  const { registration, verifier } = input;
  if (!registration || registrationCertificateStatus(registration.notAfter, input.now) === 'expired')
    return { verifierInfo: null, overAsking: null };
  const summary = registration.summary as unknown as RegistrationSummary;
  const evaluation = evaluateOverAsking({
    dcqlQuery: input.dcqlQuery,
    intendedUses: summary.intendedUses,
    pointer: input.pointer,
  });
  const policy = verifier.overAskingPolicy === 'warn' ? 'warn' : 'refuse';
  if (evaluation.outside.length > 0) {
    deps.metrics.countOverAsking(policy, input.subject);
    if (policy === 'refuse')
      throw new AppError(
        400,
        ErrorCode.OVER_ASKING,
        `The query asks for more than verifier "${verifier.verifierId}" registered in its registration certificate (a wallet would flag it): see details. Ask only for what was registered, register the rest, or set the verifier's overAskingPolicy to "warn".`,
        evaluation.outside.map(({ path, message }) => ({ path, message })),
      );
  }
  return {
    // One certificate: the queries any of its intended uses covers.
    verifierInfo:
      buildVerifierInfo([
        { registrationCertificate: registration.jwt, credentialIds: evaluation.coveredCredentialIds.flat() },
      ]) ?? null,
    overAsking: evaluation.outside.length > 0 ? evaluation.outside : null,
  };
}
