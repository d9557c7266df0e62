import { ErrorCode, IntentResolveRequestSchema, QueueGroup, Subject, type IntentResolveRequest, type IntentResolveResult } from '@tessera/contracts';
import { forbidden, notFound, serveRequests, type Logger, type MessageBus } from '@tessera/service-kit';
import { findEcosystem } from '../db/ecosystems.js';
import { findNoticeVersion } from '../db/intent-notices.js';
import { findMappingsFor } from '../db/intent-templates.js';
import { findIntentByName } from '../db/intents.js';
import { isActiveParticipant } from '../db/standing.js';
import type { EcoDb } from '../db/db-types.js';
import { isUuid } from '../domain/ids.js';
import { pickTemplate } from '../domain/resolve-template.js';
import { presentNotice } from '../present.js';
import type { ResolutionCache } from '../resolution-cache.js';

export interface IntentResolutionOptions {
  bus: MessageBus;
  db: EcoDb;
  logger: Logger;
  /** ECOSYSTEM_ENABLED: when false every request is refused with ECOSYSTEM_DISABLED. */
  enabled: boolean;
  /** Reuses resolutions until a change notification (see ResolutionCache); absent: none are reused. */
  cache?: ResolutionCache;
}

/** Answers `ecosystem.v1.intent.resolve` as a member of queue group `ecosystem`. Returns the unsubscribe function. */
export function serveIntentResolution(options: IntentResolutionOptions): () => void {
  return serveRequests(options.bus, {
    subject: Subject.INTENT_RESOLVE,
    queue: QueueGroup.ECOSYSTEM,
    requestSchema: IntentResolveRequestSchema,
    logger: options.logger,
    handler: (request) => {
      if (!options.enabled || !options.cache) return resolveIntent(options.db, request, options.enabled);
      return options.cache.resolve(request, () => resolveIntent(options.db, request, options.enabled));
    },
  });
}

/**
 * ECOSYSTEM.md, Resolution: the ecosystem must exist, the calling organisation must be
 * its lead or an ACTIVE member, the intent is matched by name ignoring case, and the
 * organisation's override wins over the ecosystem-wide mapping.
 */
export async function resolveIntent(db: EcoDb, request: IntentResolveRequest, enabled: boolean): Promise<IntentResolveResult> {
  if (!enabled) throw forbidden('The ecosystem feature is disabled on this platform.', ErrorCode.ECOSYSTEM_DISABLED);
  // The `uuid` format admits a `urn:uuid:` prefix that the uuid column would reject.
  if (!isUuid(request.ecosystemId) || !(await findEcosystem(db, request.ecosystemId))) {
    throw notFound(`No ecosystem ${request.ecosystemId}.`, ErrorCode.ECOSYSTEM_NOT_FOUND);
  }
  if (!(await isActiveParticipant(db, request.ecosystemId, request.orgId))) {
    throw forbidden(`Organisation ${request.orgId} is neither the lead nor an active member of this ecosystem.`, ErrorCode.NOT_A_MEMBER);
  }
  const intent = await findIntentByName(db, request.ecosystemId, request.intent);
  if (!intent) throw notFound(`This ecosystem has no intent "${request.intent}".`, ErrorCode.INTENT_NOT_FOUND);
  const picked = pickTemplate(await findMappingsFor(db, intent.id, request.orgId), request.orgId, request.role);
  if (!picked) throw notFound(`Intent "${intent.name}" has no ${request.role} template for this organisation or the ecosystem.`, ErrorCode.INTENT_TEMPLATE_NOT_FOUND);
  const notice = await findNoticeVersion(db, intent.id);
  return { intentId: intent.id, intent: intent.name, templateId: picked.templateId, scope: picked.scope, ...(notice ? { notice: presentNotice(notice) } : {}) };
}
