import { ErrorCode, type IntentResolveRequest, type TrustPolicy } from '@tessera/contracts';
import { forbidden, isUuid, notFound } from '@tessera/service-kit';
import type { ResolutionCache } from '../state/resolution-cache.js';
import { findEcosystem } from '../db/ecosystems.js';
import { findNoticeVersion, type NoticeVersionView } from '../db/intent-notices.js';
import { findMappingsFor } from '../db/intent-templates.js';
import { findIntentByName } from '../db/intents.js';
import type { IntentRow } from '../db/schema.js';
import { isActiveParticipant } from '../db/standing.js';
import type { EcosystemDb } from '../db/types.js';
import { ecosystemDisabled } from '../domain/errors.js';
import { pickTemplate } from '../domain/resolve-template.js';

export interface ResolveIntentDeps {
  db: EcosystemDb;
  /** ECOSYSTEM_ENABLED: when false every request is refused with ECOSYSTEM_DISABLED. */
  enabled: boolean;
  /** Reuses resolutions until the data changes (state/); absent: every request reads the database. */
  resolutions?: ResolutionCache<IntentResolution>;
}

export type ResolveIntentInput = IntentResolveRequest;

/** Which template the organisation's intent uses, and the intent's notice when it has one. */
export interface IntentResolution {
  intent: IntentRow;
  templateId: string;
  scope: 'organisation' | 'ecosystem';
  notice: NoticeVersionView | undefined;
  /** The ecosystem's trust policy: whom the verifier trusts for sessions of this intent. */
  trustPolicy: TrustPolicy;
}

/**
 * `ecosystem.v1.intent.resolve` (ECOSYSTEM.md, Resolution): the ecosystem must exist,
 * the calling organisation must be its lead or an ACTIVE member, the intent is matched
 * by name ignoring case, and the organisation's override wins over the ecosystem-wide
 * mapping. Refusals are reused like resolutions; a disabled feature is never cached.
 */
export async function resolveIntent(deps: ResolveIntentDeps, input: ResolveIntentInput): Promise<IntentResolution> {
  if (!deps.enabled) throw ecosystemDisabled();
  if (!deps.resolutions) return readResolution(deps.db, input);
  return deps.resolutions.resolve(input, () => readResolution(deps.db, input));
}

async function readResolution(db: EcosystemDb, request: IntentResolveRequest): Promise<IntentResolution> {
  // The `uuid` format admits a `urn:uuid:` prefix that the uuid column would reject.
  const ecosystem = isUuid(request.ecosystemId) ? await findEcosystem(db, request.ecosystemId) : undefined;
  if (!ecosystem) throw notFound(`No ecosystem ${request.ecosystemId}.`, ErrorCode.ECOSYSTEM_NOT_FOUND);
  if (!(await isActiveParticipant(db, request.ecosystemId, request.orgId))) {
    throw forbidden(
      `Organisation ${request.orgId} is neither the lead nor an active member of this ecosystem.`,
      ErrorCode.NOT_A_MEMBER,
    );
  }
  const intent = await findIntentByName(db, request.ecosystemId, request.intent);
  if (!intent) throw notFound(`This ecosystem has no intent "${request.intent}".`, ErrorCode.INTENT_NOT_FOUND);
  const picked = pickTemplate(await findMappingsFor(db, intent.id, request.orgId), request.orgId, request.role);
  if (!picked)
    throw notFound(
      `Intent "${intent.name}" has no ${request.role} template for this organisation or the ecosystem.`,
      ErrorCode.INTENT_TEMPLATE_NOT_FOUND,
    );
  return {
    intent,
    templateId: picked.templateId,
    scope: picked.scope,
    notice: await findNoticeVersion(db, intent.id),
    trustPolicy: ecosystem.trustPolicy,
  };
}
