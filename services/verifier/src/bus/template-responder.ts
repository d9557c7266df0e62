import { ErrorCode, verificationTemplateGetRpc, type SignerOption } from '@tessera/contracts';
import { isUuid, notFound, serveRequests, type Logger, type MessageBus } from '@tessera/service-kit';
import { findTemplateById } from '../db/templates.js';
import type { VerifierDb } from '../db/types.js';

/**
 * Answers `verifier.v1.verification-template.get` for the ecosystem service (queue
 * group `verifier`), so it can check a verifier-role intent template names a real template.
 */
export function serveVerificationTemplateGet(options: { bus: MessageBus; db: VerifierDb; logger: Logger }): () => void {
  return serveRequests(options.bus, verificationTemplateGetRpc, {
    logger: options.logger,
    handler: async ({ templateId }) => {
      const row = isUuid(templateId) ? await findTemplateById(options.db, { id: templateId }) : undefined;
      if (!row) throw notFound(`No verification template ${templateId}.`, ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND);
      return { id: row.id, orgId: row.orgId, name: row.name, signerOption: row.signerOption as SignerOption };
    },
  });
}
