// A step of creating and updating intent templates: a verifier-role template is
// checked with the verifier service (ECOSYSTEM.md, Intents and their templates).
import { ErrorCode, verificationTemplateGetRpc, type VerificationTemplateSummary } from '@tessera/contracts';
import { AppError, badRequest, callService, dependencyUnavailable, type MessageBus } from '@tessera/service-kit';
import { isActiveParticipant } from '../../db/standing.js';
import type { EcosystemDb } from '../../db/types.js';

export interface CheckVerificationTemplateDeps {
  db: EcosystemDb;
  bus: MessageBus;
}

export interface CheckVerificationTemplateInput {
  ecosystemId: string;
  templateId: string;
  /** Passed to the verifier, so both services' logs share it. */
  requestId: string;
}

/**
 * Asks the verifier for the template: unknown → 400 VERIFICATION_TEMPLATE_NOT_FOUND,
 * owned by neither the lead nor an ACTIVE member → 400 TEMPLATE_OWNER_NOT_MEMBER,
 * no answer in time (2 s) → 503.
 */
export async function checkVerificationTemplate(
  deps: CheckVerificationTemplateDeps,
  input: CheckVerificationTemplateInput,
): Promise<VerificationTemplateSummary> {
  let template: VerificationTemplateSummary;
  try {
    template = await callService(
      deps.bus,
      verificationTemplateGetRpc,
      { templateId: input.templateId },
      { requestId: input.requestId },
    );
  } catch (error) {
    if (!(error instanceof AppError) || error.statusCode === 503) throw error;
    // A verifier that refuses the lookup as invalid (400) is treated as "unknown template" (README).
    if (error.statusCode === 404 || error.statusCode === 400) {
      throw badRequest(
        `The verifier knows no verification template ${input.templateId}.`,
        [{ path: '/templateId', message: error.message }],
        ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND,
      );
    }
    // Any other refusal by the peer is its own fault, not the caller's: report it as unavailable.
    throw dependencyUnavailable(
      `The verifier service could not check template ${input.templateId}; try again shortly.`,
      error,
    );
  }
  if (!(await isActiveParticipant(deps.db, input.ecosystemId, template.orgId))) {
    throw badRequest(
      `Verification template ${input.templateId} belongs to an organisation that is neither the lead nor an active member of this ecosystem.`,
      [{ path: '/templateId', message: 'template owner is not part of the ecosystem' }],
      ErrorCode.TEMPLATE_OWNER_NOT_MEMBER,
    );
  }
  return template;
}
