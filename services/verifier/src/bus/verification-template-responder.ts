import { verificationTemplateGetRpc } from '@tessera/contracts';
import { serveRequests, type Logger, type MessageBus } from '@tessera/service-kit';
import type { VerifierDb } from '../db/types.js';
import { toVerificationTemplateSummary } from '../presenters/verification-template.js';
import { getVerificationTemplateSummary } from '../use-cases/get-verification-template-summary.js';

/**
 * Answers `verifier.v1.verification-template.get` for the ecosystem service (queue
 * group `verifier`), so it can check a verifier-role intent template names a real
 * template. Returns the function that stops answering.
 */
export function serveVerificationTemplateGet(bus: MessageBus, deps: { db: VerifierDb; logger: Logger }): () => void {
  return serveRequests(bus, verificationTemplateGetRpc, {
    logger: deps.logger,
    handler: async (request) => toVerificationTemplateSummary(await getVerificationTemplateSummary(deps, request)),
  });
}
