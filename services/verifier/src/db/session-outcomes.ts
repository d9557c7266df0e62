// How a wallet's answer ends a session. The first answer wins: every transition
// is one conditional UPDATE on an open, unexpired session, so a concurrent
// answer that comes second matches no row and changes nothing.
import { and, eq, gt, inArray } from 'drizzle-orm';
import { OPEN_STATES } from '../domain/session-state.js';
import { presentationResults, presentationSessions, type PresentationResultRow, type SessionRow } from './schema.js';
import type { VerifierDb } from './types.js';

export interface VerifiedOutcome {
  presentations: Array<Record<string, unknown>>;
  credentialSets?: Array<Record<string, unknown>>;
}

function openAndUnexpired(id: string, now: Date) {
  return and(eq(presentationSessions.id, id), inArray(presentationSessions.state, [...OPEN_STATES]), gt(presentationSessions.expiresAt, now));
}

/**
 * `ResponseVerified` plus the result, in one transaction: the result row exists
 * exactly when the session reads verified, and so does the hash of the
 * `response_code` its redirect carries (same-device flows). Undefined when
 * another answer won.
 */
export async function markResponseVerified(
  db: VerifierDb,
  params: { id: string; now: Date; outcome: VerifiedOutcome; responseCodeHash?: string },
): Promise<{ session: SessionRow; result: PresentationResultRow } | undefined> {
  return db.transaction(async (tx) => {
    const [session] = await tx
      .update(presentationSessions)
      .set({ state: 'ResponseVerified', errorCode: null, errorMessage: null, responseCodeHash: params.responseCodeHash ?? null, updatedAt: params.now })
      .where(openAndUnexpired(params.id, params.now))
      .returning();
    if (!session) return undefined;
    const [result] = await tx
      .insert(presentationResults)
      .values({ sessionId: session.id, orgId: session.orgId, verifiedAt: params.now, presentations: params.outcome.presentations, credentialSets: params.outcome.credentialSets ?? null })
      .returning();
    return { session, result: result! };
  });
}

/** `Error` with a code and message (failed verification, wallet error). Undefined when another answer won. */
export async function markResponseFailed(db: VerifierDb, params: { id: string; now: Date; code: string; message: string }): Promise<SessionRow | undefined> {
  const [session] = await db
    .update(presentationSessions)
    .set({ state: 'Error', errorCode: params.code, errorMessage: params.message, updatedAt: params.now })
    .where(openAndUnexpired(params.id, params.now))
    .returning();
  return session;
}

export async function findPresentationResult(db: VerifierDb, params: { orgId: string; sessionId: string }): Promise<PresentationResultRow | undefined> {
  const [row] = await db.select().from(presentationResults).where(and(eq(presentationResults.orgId, params.orgId), eq(presentationResults.sessionId, params.sessionId)));
  return row;
}
