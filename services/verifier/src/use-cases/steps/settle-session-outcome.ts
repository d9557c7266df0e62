import { sessionUpdatedEvent, type ErrorCode } from '@tessera/contracts';
import { type Clock, type MessageBus, publishEvent } from '@tessera/service-kit';
import type { SessionRow } from '../../db/schema.js';
import { markResponseFailed, markResponseVerified, type PresentationResult } from '../../db/session-outcomes.js';
import type { VerifierDb } from '../../db/types.js';
import { presentationDataExpiresAt, summarisePresentations } from '../../domain/presentation-data.js';
import { sessionErrorMessage, walletErrorSubject } from '../../domain/session-errors.js';
import { retainedPresentations, type VerifyPresentationResult } from '../../verification/index.js';
import { presentationFormatOf, type VerifierMetrics } from '../../metrics/verifier-metrics.js';
import type { DataKeyRing } from '../../state/data-key-ring.js';
import { sealPresentationData } from './presentation-data.js';

// Shared step of the two answer use cases (wallet response, DC API response).

/**
 * How an answer ends the session: verified with its result, in `Error` with a
 * verification code (and the credential query it concerns), or with the wallet's error
 * (`error`, the OAuth code it sent; only a registered one is kept).
 */
export type SessionOutcome =
  VerifyPresentationResult | { ok: false; code: typeof ErrorCode.WALLET_ERROR; error: string };

/** The session's new state, as the outcome left it. */
export type SettledOutcome =
  | { state: 'ResponseVerified'; session: SessionRow; result: PresentationResult }
  | { state: 'Error'; session: SessionRow; error: { code: string; message: string } };

export type SettleSessionOutcomeResult = { won: true; settled: SettledOutcome } | { won: false };

export interface SettleSessionOutcomeDeps {
  db: VerifierDb;
  bus: MessageBus;
  clock: Clock;
  dataKeys: DataKeyRing;
  presentationData: PresentationDataSettings;
  metrics: Pick<VerifierMetrics, 'countPresentation'>;
}

/** PRESENTATION_DATA_TTL_SECONDS and PRESENTATION_READ_GRACE_SECONDS. */
export interface PresentationDataSettings {
  ttlSeconds: number;
  readGraceSeconds: number;
}

/**
 * Applies the outcome with a conditional UPDATE (first answer wins; a verified
 * outcome's presentation data sealed with the organisation's data key) and
 * publishes `verifier.v1.session.updated` when it did. A loser changes nothing.
 */
export async function settleSessionOutcome(
  deps: SettleSessionOutcomeDeps,
  input: {
    session: SessionRow;
    outcome: SessionOutcome;
    requestId?: string;
    /** Stored with a verified outcome: the hash of the redirect's `response_code`. */
    responseCodeHash?: string;
    /** The answer returns the claims to the relying party (DC API): it is their first read, and starts the read grace. */
    answerIsRead?: boolean;
  },
): Promise<SettleSessionOutcomeResult> {
  const { session, outcome } = input;
  const now = deps.clock();
  if (outcome.ok) {
    const presentations = outcome.presentations as unknown as Array<Record<string, unknown>>;
    const credentialSets = outcome.credentialSets as unknown as Array<Record<string, unknown>> | undefined;
    const verified = { presentations, ...(credentialSets ? { credentialSets } : {}) };
    const lifetime = {
      summary: summarisePresentations(presentations),
      dataExpiresAt: presentationDataExpiresAt({
        verifiedAt: now,
        platformTtlSeconds: deps.presentationData.ttlSeconds,
        sessionTtlSeconds: session.presentationDataTtlSeconds,
      }),
      readExpiresAt: input.answerIsRead
        ? new Date(now.getTime() + deps.presentationData.readGraceSeconds * 1000)
        : null,
    };
    // Sealed before the statement (the data key is cached per replica): the write stays one statement.
    const sealed = await sealPresentationData(deps.dataKeys, {
      orgId: session.orgId,
      sessionId: session.id,
      outcome: verified,
      retainedPresentations: retainedPresentations(session.dcqlQuery, presentations),
    });
    const saved = await markResponseVerified(deps.db, {
      session,
      now,
      outcome: verified,
      sealed,
      lifetime,
      ...(input.responseCodeHash ? { responseCodeHash: input.responseCodeHash } : {}),
    });
    if (!saved) return { won: false };
    deps.metrics.countPresentation(presentationFormatOf(session.dcqlQuery), 'verified');
    publishEvent(
      deps.bus,
      sessionUpdatedEvent,
      { id: session.id, orgId: session.orgId, state: 'ResponseVerified' },
      { requestId: input.requestId },
    );
    return { won: true, settled: { state: 'ResponseVerified', session: saved.session, result: saved.result } };
  }
  // The stored message is the code's fixed sentence, never the engine's diagnosis (domain/session-errors.ts).
  const subject = 'error' in outcome ? walletErrorSubject(outcome.error) : outcome.credentialQueryId;
  const message = sessionErrorMessage(outcome.code, subject);
  const failed = await markResponseFailed(deps.db, {
    id: session.id,
    now,
    code: outcome.code,
    ...(subject !== undefined ? { subject } : {}),
    message,
  });
  if (!failed) return { won: false };
  deps.metrics.countPresentation(presentationFormatOf(session.dcqlQuery), outcome.code);
  publishEvent(
    deps.bus,
    sessionUpdatedEvent,
    { id: session.id, orgId: session.orgId, state: 'Error' },
    { requestId: input.requestId },
  );
  return {
    won: true,
    settled: { state: 'Error', session: failed, error: { code: outcome.code, message } },
  };
}
