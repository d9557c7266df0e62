import { ErrorCode } from '@tessera/contracts';
import { AppError, type Clock, isUuid, type Logger } from '@tessera/service-kit';
import { hashResponseCode, responseCodeMatches } from '../crypto/response-code.js';
import { PresentationDataUnreadableError } from '../crypto/data-key.js';
import { KeyDecryptionError } from '../crypto/key-encryption.js';
import { readSessionAndResultRecorded, type SessionReadState } from '../db/presentation-reads.js';
import type { PresentationResult } from '../db/session-outcomes.js';
import type { VerifierDb } from '../db/types.js';
import { presentationSessionNotFound } from '../domain/errors.js';
import { readablePresentationData } from '../domain/presentation-data.js';
import { effectiveSessionState } from '../domain/session-state.js';
import type { DataKeyRing } from '../state/data-key-ring.js';
import { openPresentationResult } from './steps/presentation-data.js';
import type { PresentationDataSettings } from './steps/settle-session-outcome.js';

export interface ReadPresentationResponseDeps {
  db: VerifierDb;
  clock: Clock;
  dataKeys: DataKeyRing;
  logger: Logger;
  presentationData: Pick<PresentationDataSettings, 'readGraceSeconds'>;
}

export interface ReadPresentationResponseInput {
  orgId: string;
  sessionId: string;
  /** The caller's access-token subject, recorded with a successful read (`presentation_reads`). */
  subject: string;
  /** The `response_code` the relying party received with the wallet's redirect; when given it must be the session's. */
  responseCode?: string;
}

export interface PresentationResponseRead {
  session: SessionReadState;
  result: PresentationResult;
}

/**
 * `GET verifier-presentation-response`: what a verified session proved; 404
 * unknown, 403 RESPONSE_CODE_MISMATCH when a `responseCode` is given that is not
 * the one the session's redirect carried (checked before the state, so a wrong
 * code learns nothing about the session), 409 PRESENTATION_NOT_VERIFIED unless
 * ResponseVerified. The code is not consumed: reading is idempotent, so a relying
 * party that retries gets the same answer — within PRESENTATION_READ_GRACE_SECONDS
 * of the first read, which starts the deletion of the claims not declared
 * `intent_to_retain: true` (domain/presentation-data.ts); after it only the
 * retained claims are answered. 410 PRESENTATION_DATA_EXPIRED once the data is
 * gone (the session still reads verified), decided from the row's deadlines
 * before anything is decrypted. The session and its result are read in one
 * statement, which also records a read that hands out the data (who, when, this
 * route) and starts the read grace; a refused read (404, 403, 409, 410) hands out
 * nothing and records nothing (the statement records only a ResponseVerified
 * session's readable result, and only when a `responseCode` given hashes to the
 * stored one: the 403 itself is decided by the constant-time comparison). The stored data is opened with the organisation's data key; when it
 * does not open (altered, swapped between rows, or KEY_ENCRYPTION_KEY no longer
 * opens the data key) the answer is 500 PRESENTATION_DATA_UNREADABLE with nothing
 * of the data, and the incident is logged with the session's id only.
 */
export async function readPresentationResponse(
  deps: ReadPresentationResponseDeps,
  input: ReadPresentationResponseInput,
): Promise<PresentationResponseRead> {
  const { orgId, sessionId } = input;
  const now = deps.clock();
  const reader = { subject: input.subject, route: 'verifier-presentation-response', at: now } as const;
  const graceEndsAt = new Date(now.getTime() + deps.presentationData.readGraceSeconds * 1000);
  // One statement: the session, and its result recorded as read only when it is ResponseVerified
  // and the code given (if any) is its own; the checks below decide from the same rows.
  const read = isUuid(sessionId)
    ? await readSessionAndResultRecorded(deps.db, {
        orgId,
        sessionId,
        reader,
        graceEndsAt,
        responseCodeHash: input.responseCode === undefined ? null : hashResponseCode(input.responseCode),
      })
    : undefined;
  if (!read) throw presentationSessionNotFound();
  const { session } = read;
  if (input.responseCode !== undefined && !responseCodeMatches(input.responseCode, session.responseCodeHash)) {
    throw new AppError(
      403,
      ErrorCode.RESPONSE_CODE_MISMATCH,
      'The responseCode is not the one this session’s redirect carried: the redirect did not come from this session’s wallet (a possible session fixation). Do not accept this result for the user.',
    );
  }
  const { state } = effectiveSessionState(session, now);
  const stored = state === 'ResponseVerified' ? read.result : undefined;
  if (!stored)
    throw new AppError(
      409,
      ErrorCode.PRESENTATION_NOT_VERIFIED,
      `The session is ${state}: presentation data exists only once it is ResponseVerified.`,
    );
  const readable = readablePresentationData(stored, now);
  if (readable.kind === 'expired') {
    throw new AppError(
      410,
      ErrorCode.PRESENTATION_DATA_EXPIRED,
      `The session was verified at ${stored.verifiedAt.toISOString()}, but its presentation data has been deleted: its lifetime ended.`,
    );
  }
  try {
    return { session, result: await openPresentationResult(deps.dataKeys, stored, readable.view) };
  } catch (error) {
    if (!(error instanceof PresentationDataUnreadableError || error instanceof KeyDecryptionError)) throw error;
    deps.logger.error(
      { orgId, sessionId, reason: error.name },
      'stored presentation data cannot be opened: altered, moved from another row, or KEY_ENCRYPTION_KEY does not open its data key',
    );
    throw new AppError(
      500,
      ErrorCode.PRESENTATION_DATA_UNREADABLE,
      'The stored presentation data of this session cannot be opened (altered, or its key is no longer configured); nothing of it is returned. The incident is logged.',
    );
  }
}
