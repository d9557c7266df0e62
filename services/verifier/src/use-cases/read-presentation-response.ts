import { ErrorCode } from '@tessera/contracts';
import { AppError, isUuid } from '@tessera/service-kit';
import type { PresentationResultRow, SessionRow } from '../db/schema.js';
import { findPresentationResult } from '../db/session-outcomes.js';
import { findSession } from '../db/sessions.js';
import type { VerifierDb } from '../db/types.js';
import type { Clock } from '../domain/clock.js';
import { presentationSessionNotFound } from '../domain/errors.js';
import { effectiveSessionState } from '../domain/session-state.js';

export interface ReadPresentationResponseDeps {
  db: VerifierDb;
  clock: Clock;
}

export interface ReadPresentationResponseInput {
  orgId: string;
  sessionId: string;
}

export interface PresentationResponseRead {
  session: SessionRow;
  result: PresentationResultRow;
}

/** `GET verifier-presentation-response`: what a verified session proved; 404 unknown, 409 PRESENTATION_NOT_VERIFIED unless ResponseVerified. */
export async function readPresentationResponse(deps: ReadPresentationResponseDeps, input: ReadPresentationResponseInput): Promise<PresentationResponseRead> {
  const { orgId, sessionId } = input;
  const session = isUuid(sessionId) ? await findSession(deps.db, { orgId, id: sessionId }) : undefined;
  if (!session) throw presentationSessionNotFound();
  const { state } = effectiveSessionState(session, deps.clock());
  const result = state === 'ResponseVerified' ? await findPresentationResult(deps.db, { orgId, sessionId }) : undefined;
  if (!result) throw new AppError(409, ErrorCode.PRESENTATION_NOT_VERIFIED, `The session is ${state}: presentation data exists only once it is ResponseVerified.`);
  return { session, result };
}
