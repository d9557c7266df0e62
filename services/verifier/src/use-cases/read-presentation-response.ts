import { ErrorCode } from '@tessera/contracts';
import { AppError, isUuid } from '@tessera/service-kit';
import { responseCodeMatches } from '../crypto/response-code.js';
import type { PresentationResultRow, SessionRow } from '../db/schema.js';
import { findPresentationResult, startPresentationReadGrace } from '../db/session-outcomes.js';
import { findSession } from '../db/sessions.js';
import type { VerifierDb } from '../db/types.js';
import type { Clock } from '../domain/clock.js';
import { presentationSessionNotFound } from '../domain/errors.js';
import { readablePresentationData } from '../domain/presentation-data.js';
import { effectiveSessionState } from '../domain/session-state.js';
import type { PresentationDataSettings } from './steps/settle-session-outcome.js';

export interface ReadPresentationResponseDeps {
  db: VerifierDb;
  clock: Clock;
  presentationData: Pick<PresentationDataSettings, 'readGraceSeconds'>;
}

export interface ReadPresentationResponseInput {
  orgId: string;
  sessionId: string;
  /** The `response_code` the relying party received with the wallet's redirect; when given it must be the session's. */
  responseCode?: string;
}

export interface PresentationResponseRead {
  session: SessionRow;
  result: PresentationResultRow;
}

/**
 * `GET verifier-presentation-response`: what a verified session proved; 404
 * unknown, 403 RESPONSE_CODE_MISMATCH when a `responseCode` is given that is not
 * the one the session's redirect carried (checked before the state, so a wrong
 * code learns nothing about the session), 409 PRESENTATION_NOT_VERIFIED unless
 * ResponseVerified. The code is not consumed: reading is idempotent, so a relying
 * party that retries gets the same answer — within PRESENTATION_READ_GRACE_SECONDS
 * of the first read, which starts the deletion of the claims not declared
 * `intent_to_retain: true` (domain/presentation-data.ts). 410
 * PRESENTATION_DATA_EXPIRED once the data is gone (the session still reads verified).
 */
export async function readPresentationResponse(deps: ReadPresentationResponseDeps, input: ReadPresentationResponseInput): Promise<PresentationResponseRead> {
  const { orgId, sessionId } = input;
  const session = isUuid(sessionId) ? await findSession(deps.db, { orgId, id: sessionId }) : undefined;
  if (!session) throw presentationSessionNotFound();
  if (input.responseCode !== undefined && !responseCodeMatches(input.responseCode, session.responseCodeHash)) {
    throw new AppError(403, ErrorCode.RESPONSE_CODE_MISMATCH, 'The responseCode is not the one this session’s redirect carried: the redirect did not come from this session’s wallet (a possible session fixation). Do not accept this result for the user.');
  }
  const { state } = effectiveSessionState(session, deps.clock());
  const result = state === 'ResponseVerified' ? await findPresentationResult(deps.db, { orgId, sessionId }) : undefined;
  if (!result) throw new AppError(409, ErrorCode.PRESENTATION_NOT_VERIFIED, `The session is ${state}: presentation data exists only once it is ResponseVerified.`);
  const now = deps.clock();
  const readable = readablePresentationData(result, now);
  if (readable.kind === 'expired') {
    throw new AppError(410, ErrorCode.PRESENTATION_DATA_EXPIRED, `The session was verified at ${result.verifiedAt.toISOString()}, but its presentation data has been deleted: its lifetime ended.`);
  }
  if (result.readExpiresAt === null) {
    await startPresentationReadGrace(deps.db, { orgId, sessionId, readExpiresAt: new Date(now.getTime() + deps.presentationData.readGraceSeconds * 1000) });
  }
  return { session, result: { ...result, presentations: readable.presentations } };
}
