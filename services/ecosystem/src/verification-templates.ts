// Checks a verifier-role intent template with the verifier service (ECOSYSTEM.md, Intents).
import {
  ErrorCode,
  Subject,
  VerificationTemplateGetRequestSchema,
  VerificationTemplateSummarySchema,
  type VerificationTemplateSummary,
} from '@tessera/contracts';
import { AppError, badRequest, callService, dependencyUnavailable, type MessageBus } from '@tessera/service-kit';

export interface CheckVerificationTemplateOptions {
  bus: MessageBus;
  templateId: string;
  requestId: string;
  /** Whether the template's owner may provide templates to this ecosystem (lead or ACTIVE member). */
  isParticipant: (orgId: string) => Promise<boolean>;
  timeoutMs?: number;
}

/**
 * Asks the verifier for the template: unknown → 400 VERIFICATION_TEMPLATE_NOT_FOUND,
 * owned outside the ecosystem → 400 TEMPLATE_OWNER_NOT_MEMBER, no answer in time → 503.
 */
export async function checkVerificationTemplate(options: CheckVerificationTemplateOptions): Promise<VerificationTemplateSummary> {
  let template: VerificationTemplateSummary;
  try {
    template = await callService(options.bus, {
      subject: Subject.VERIFICATION_TEMPLATE_GET,
      requestSchema: VerificationTemplateGetRequestSchema,
      replyDataSchema: VerificationTemplateSummarySchema,
      request: { templateId: options.templateId },
      requestId: options.requestId,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      peer: 'the verifier service',
    });
  } catch (error) {
    if (!(error instanceof AppError) || error.statusCode === 503) throw error;
    if (error.statusCode === 404 || error.statusCode === 400) {
      throw badRequest(`The verifier knows no verification template ${options.templateId}.`, [{ path: '/templateId', message: error.message }], ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND);
    }
    // Any other refusal by the peer is its own fault, not the caller's: report it as unavailable.
    throw dependencyUnavailable(`The verifier service could not check template ${options.templateId}; try again shortly.`, error);
  }
  if (!(await options.isParticipant(template.orgId))) {
    throw badRequest(
      `Verification template ${options.templateId} belongs to an organisation that is neither the lead nor an active member of this ecosystem.`,
      [{ path: '/templateId', message: 'template owner is not part of the ecosystem' }],
      ErrorCode.TEMPLATE_OWNER_NOT_MEMBER,
    );
  }
  return template;
}
