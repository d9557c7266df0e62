import {
  ErrorCode,
  intentResolveRpc,
  type ClientIdPrefix,
  type CreateIntentPresentationBody,
  type IntentNotice,
  type SignerOption,
} from '@tessera/contracts';
import { callService, isUuid, notFound } from '@tessera/service-kit';
import { findTemplateById } from '../db/templates.js';
import { findVerifierForSession } from '../db/verifiers.js';
import { requireSupportedTrustedAuthorities, walletDcqlQuery } from '../domain/dcql.js';
import { verifierNotFound } from '../domain/errors.js';
import { checkResponseModeOptions } from '../domain/response-mode.js';
import { encodeSessionTransactionData } from '../domain/transaction-data.js';
import type { VerifierMetrics } from '../metrics/verifier-metrics.js';
import type { TrustLists } from '../state/trust-list-snapshots.js';
import { applyTrustList } from './steps/apply-trust-list.js';
import { judgeRegisteredUse } from './steps/judge-registered-use.js';
import {
  startPresentationSession,
  type StartedPresentationSession,
  type StartPresentationSessionDeps,
} from './steps/start-presentation-session.js';

export interface CreateIntentBasedSessionDeps extends StartPresentationSessionDeps {
  /** ECOSYSTEM_TIMEOUT_MS: how long `ecosystem.v1.intent.resolve` may take. */
  ecosystemTimeoutMs: number;
  /** The replica's ecosystem trust lists (sessions under the `ecosystem` trust policy). */
  trustLists: Pick<TrustLists, 'current' | 'currentForMember'>;
  metrics: Pick<VerifierMetrics, 'countSessionCreated' | 'countOverAsking'>;
}

export interface CreateIntentBasedSessionInput {
  orgId: string;
  verifierId: string;
  ecosystemId: string;
  body: CreateIntentPresentationBody;
  requestId?: string;
}

export interface CreatedIntentBasedSession extends StartedPresentationSession {
  /** The intent's privacy notice, when the ecosystem has one. */
  notice?: IntentNotice;
}

/**
 * `POST intent-based-verification-presentation?verifierId=&ecosystemId=`: a
 * session from an ecosystem intent (VERIFIER.md). The cheap local checks
 * (response-mode options, the verifier) come first, so a bad request never
 * reaches the ecosystem service; then the intent is resolved over NATS, the
 * template it names is read once (it may belong to another organisation, the
 * ecosystem lead's: its query and signer apply, this organisation's keys sign),
 * and the shared session step creates the session. The verifier is read once
 * here; the insert's FOR SHARE lock by id is the race guard against a delete
 * while NATS answered (and likewise for the template). Under the ecosystem's
 * `ecosystem` trust policy (absent: `organisation`, today's behaviour) the
 * session is verified against the ecosystem's trust list only, and its query
 * names the list's issuers in `trusted_authorities` (409 NO_TRUSTED_ISSUER
 * when a credential query has none; 503 when no current list can be read).
 * The template's query is judged against this verifier's registration
 * certificate (read with the verifier), whichever verifier the template names:
 * 400 OVER_ASKING, whose paths point into the template (`/templateJson/dcql/query/…`).
 */
export async function createIntentBasedSession(
  deps: CreateIntentBasedSessionDeps,
  input: CreateIntentBasedSessionInput,
): Promise<CreatedIntentBasedSession> {
  const { orgId, verifierId, ecosystemId } = input;
  const { intent, ...options } = input.body;
  checkResponseModeOptions(options);
  const found = await findVerifierForSession(deps.db, { orgId, verifierId });
  if (!found) throw verifierNotFound(verifierId);
  const { verifier } = found;
  const resolved = await callService(
    deps.bus,
    intentResolveRpc,
    { ecosystemId, intent, orgId, role: 'verifier' },
    { requestId: input.requestId, timeoutMs: deps.ecosystemTimeoutMs },
  );
  const template = isUuid(resolved.templateId)
    ? await findTemplateById(deps.db, { id: resolved.templateId })
    : undefined;
  if (!template)
    throw notFound(
      `The verification template the intent "${intent}" maps to does not exist.`,
      ErrorCode.VERIFICATION_TEMPLATE_NOT_FOUND,
    );
  requireSupportedTrustedAuthorities({ query: template.templateJson.dcql.query, pointer: '/templateJson/dcql/query' });
  const templateQuery = walletDcqlQuery(template.templateJson.dcql.query);
  const judgement = judgeRegisteredUse(deps, {
    verifier,
    registration: found.registration,
    dcqlQuery: templateQuery,
    pointer: '/templateJson/dcql/query',
    now: deps.clock(),
    subject: 'session',
  });
  const byList = (resolved.trustPolicy ?? 'organisation') === 'ecosystem';
  const dcqlQuery = byList
    ? applyTrustList({
        dcqlQuery: templateQuery,
        list: await deps.trustLists.current(ecosystemId, { requestId: input.requestId }),
        now: deps.clock(),
      })
    : templateQuery;
  const started = await startPresentationSession(deps, {
    orgId,
    verifier,
    options,
    dcqlQuery,
    queryPointer: '/templateJson/dcql/query',
    transactionData: encodeSessionTransactionData(options.transactionData, dcqlQuery),
    fallbackSigner: {
      method: template.signerOption as SignerOption,
      clientIdPrefix: template.clientIdPrefix as ClientIdPrefix | null,
    },
    templateId: template.id,
    intentId: resolved.intentId,
    ecosystemId,
    ...(byList ? { trustEcosystemId: ecosystemId } : {}),
    judgement,
    requestId: input.requestId,
  });
  return { ...started, ...(resolved.notice ? { notice: resolved.notice } : {}) };
}
