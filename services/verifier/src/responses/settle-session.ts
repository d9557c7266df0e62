import { ErrorCode, type AuthorizationResponseOutcome, type PresentationResponse, type SatisfiedCredentialSet, type VerifiedPresentation } from '@tessera/contracts';
import type { VerifierContext } from '../context.js';
import type { PresentationResultRow, SessionRow } from '../db/schema.js';
import { markResponseFailed, markResponseVerified } from '../db/session-outcomes.js';
import { expireSessions } from '../db/sessions.js';
import { effectiveSessionState, isOpenState, SESSION_EXPIRED_MESSAGE } from '../domain/session-state.js';
import type { VerifyPresentationResult } from '../verification/index.js';
import { publishSessionUpdated } from '../sessions/session-events.js';

/** How the session ends: verified with its result, or in `Error` with a code. */
export type SessionOutcome = VerifyPresentationResult | { ok: false; code: typeof ErrorCode.WALLET_ERROR; message: string };

export type SettleResult = { won: true; outcome: AuthorizationResponseOutcome } | { won: false };

/**
 * Applies the outcome with a conditional UPDATE (first answer wins) and
 * publishes `verifier.v1.session.updated` when it did. A loser changes nothing.
 */
export async function settleSession(ctx: VerifierContext, session: SessionRow, outcome: SessionOutcome, requestId?: string): Promise<SettleResult> {
  const now = ctx.now();
  if (outcome.ok) {
    const presentations = outcome.presentations as unknown as Array<Record<string, unknown>>;
    const credentialSets = outcome.credentialSets as unknown as Array<Record<string, unknown>> | undefined;
    const saved = await markResponseVerified(ctx.db, { id: session.id, now, outcome: { presentations, ...(credentialSets ? { credentialSets } : {}) } });
    if (!saved) return { won: false };
    publishSessionUpdated(ctx.bus, { id: session.id, orgId: session.orgId, state: 'ResponseVerified' }, requestId);
    return { won: true, outcome: toPresentationResponse(saved.session, saved.result) };
  }
  const failed = await markResponseFailed(ctx.db, { id: session.id, now, code: outcome.code, message: outcome.message });
  if (!failed) return { won: false };
  publishSessionUpdated(ctx.bus, { id: session.id, orgId: session.orgId, state: 'Error' }, requestId);
  return { won: true, outcome: { id: session.id, state: 'Error', error: { code: outcome.code, message: outcome.message } } };
}

/** `verifier-presentation-response`: the verified session and what it proved. */
export function toPresentationResponse(session: Pick<SessionRow, 'id'>, result: PresentationResultRow): PresentationResponse {
  return {
    id: session.id,
    state: 'ResponseVerified',
    verifiedAt: result.verifiedAt.toISOString(),
    presentations: result.presentations as unknown as VerifiedPresentation[],
    ...(result.credentialSets ? { credentialSets: result.credentialSets as unknown as SatisfiedCredentialSet[] } : {}),
  };
}

/**
 * Whether the session still waits for an answer at `now`. One past `expiresAt`
 * is persisted as expired here (publishing the change once), so readers agree.
 */
export async function checkSessionOpen(ctx: VerifierContext, session: SessionRow, requestId?: string): Promise<{ open: true } | { open: false; expired: boolean }> {
  const now = ctx.now();
  const { state, error } = effectiveSessionState(session, now);
  if (isOpenState(state)) return { open: true };
  if (session.state !== 'Error' && state === 'Error') {
    for (const changed of await expireSessions(ctx.db, { id: session.id, now, message: SESSION_EXPIRED_MESSAGE })) {
      publishSessionUpdated(ctx.bus, { id: changed.id, orgId: changed.orgId, state: 'Error' }, requestId);
    }
  }
  return { open: false, expired: error?.code === ErrorCode.SESSION_EXPIRED };
}
