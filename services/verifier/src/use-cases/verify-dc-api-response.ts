import { ErrorCode, type ResponseMode } from '@tessera/contracts';
import { AppError, badRequest, conflict, isUuid } from '@tessera/service-kit';
import { recordPresentationRead } from '../db/presentation-reads.js';
import { countSessionRequest } from '../db/sessions.js';
import {
  readDcApiResponse,
  readDecryptedResponse,
  walletErrorMessage,
  type AuthorizationResponseParts,
} from '../domain/authorization-response.js';
import { presentationSessionNotFound, RetryLaterError } from '../domain/errors.js';
import { isDcApiMode, isEncryptedMode } from '../domain/response-mode.js';
import { checkSessionLimit } from '../domain/session-limits.js';
import { decryptAuthorizationResponse } from '../verification/index.js';
import { checkSessionOpen } from './steps/check-session-open.js';
import { openSessionDecryptionKey } from './steps/open-session-decryption-key.js';
import type { PresentationAnswerDeps } from './steps/presentation-answer-deps.js';
import { runVerification } from './steps/run-verification.js';
import { settleSessionOutcome, type SessionOutcome, type SettledOutcome } from './steps/settle-session-outcome.js';

export interface VerifyDcApiResponseInput {
  orgId: string;
  verificationSessionId: string;
  authorizationResponse: Record<string, unknown>;
  origin: string;
  /** The caller's access-token subject: a verified answer hands out presentation data, recorded as read by it. */
  subject: string;
  requestId?: string;
}

const closed = () =>
  conflict(ErrorCode.SESSION_CLOSED, 'The session has already been answered or has expired; start a new one.');

/**
 * `POST verify-authorization-response` (VERIFIER.md, DC API flow). Refusals
 * (wrong origin, unreadable, undecryptable or — for `dc_api.jwt` — unencrypted
 * response) leave the session unchanged; a processed response is settled whether
 * it verified or not, and the session's new state returned. Answers beyond the
 * session's limit (SESSION_RESPONSE_LIMIT per window) are 429 RATE_LIMITED.
 * A verified answer carries the presentation data, so it is recorded as a read
 * (`presentation_reads`) before it is returned: the data never leaves unrecorded.
 */
export async function verifyDcApiResponse(
  deps: PresentationAnswerDeps,
  input: VerifyDcApiResponseInput,
): Promise<SettledOutcome> {
  const now = deps.clock();
  // Read and counted in one statement, as on the wallet endpoint: the browser's answer
  // reaches this call through the relying party, which may be driven by anyone.
  const session = isUuid(input.verificationSessionId)
    ? await countSessionRequest(deps.db, {
        session: { orgId: input.orgId, id: input.verificationSessionId },
        counter: 'response',
        now,
        windowMs: deps.sessionLimits.windowMs,
      })
    : undefined;
  if (!session) throw presentationSessionNotFound();
  const limit = checkSessionLimit({ session, counter: 'response', limits: deps.sessionLimits, now });
  if (!limit.ok)
    throw new RetryLaterError(
      `Too many responses for this session: retry after ${limit.retryAfterSeconds} s.`,
      limit.retryAfterSeconds,
    );
  const mode = session.responseMode as ResponseMode;
  if (!isDcApiMode(mode))
    throw conflict(
      ErrorCode.NOT_DC_API_SESSION,
      `The session uses responseMode ${mode}: its wallet answers at the response_uri, not through this call.`,
    );
  const open = await checkSessionOpen(deps, { session, now, requestId: input.requestId });
  if (!open.open) throw closed();
  if (!(session.expectedOrigins ?? []).includes(input.origin)) {
    throw new AppError(
      400,
      ErrorCode.ORIGIN_NOT_ALLOWED,
      `The origin ${input.origin} is not one of the session's expectedOrigins.`,
      [{ path: '/origin', message: 'is not an expected origin' }],
    );
  }

  let parts: AuthorizationResponseParts = readDcApiResponse(input.authorizationResponse);
  const encrypted = parts.kind === 'encrypted';
  if (parts.kind === 'encrypted') {
    const privateJwk = openSessionDecryptionKey(deps, session);
    if (!privateJwk)
      throw badRequest(`A ${mode} session takes an unencrypted response (vp_token), not response.`, [
        { path: '/authorizationResponse/response', message: 'is not expected for this session' },
      ]);
    const decrypted = await decryptAuthorizationResponse({ jwe: parts.jwe, privateJwk });
    if (!decrypted.ok)
      throw new AppError(
        400,
        ErrorCode.DECRYPTION_FAILED,
        `The response cannot be decrypted with the session key: ${decrypted.message}.`,
      );
    parts = readDecryptedResponse(decrypted.payload);
  }
  if (parts.kind === 'invalid' || parts.kind === 'encrypted') {
    throw badRequest(
      `The authorization response is not usable: ${parts.kind === 'invalid' ? parts.message : 'it is encrypted twice'}`,
      [{ path: '/authorizationResponse', message: parts.kind === 'invalid' ? parts.message : 'is encrypted twice' }],
    );
  }
  // Encrypted means encrypted: a dc_api.jwt session promised the wallet's answer
  // would reach only this service, so a plaintext vp_token (or id_token) is refused
  // exactly as direct_post.jwt refuses one, and the session stays open for the real
  // answer. A wallet error may come in plaintext: it carries nothing to protect.
  if (parts.kind === 'vp_token' && !encrypted && isEncryptedMode(mode)) {
    throw new AppError(
      400,
      ErrorCode.RESPONSE_NOT_ENCRYPTED,
      `A ${mode} session takes its answer encrypted to the session key (authorizationResponse.response, a JWE), not in plaintext.`,
      [{ path: '/authorizationResponse', message: 'must be { response: <JWE> } for this session' }],
    );
  }

  const outcome: SessionOutcome =
    parts.kind === 'error'
      ? { ok: false, code: ErrorCode.WALLET_ERROR, message: walletErrorMessage(parts.error, parts.description) }
      : await runVerification(deps, {
          session,
          vpToken: parts.vpToken,
          flow: { kind: 'dc_api', origin: input.origin },
          encrypted,
        });
  const settled = await settleSessionOutcome(deps, {
    session,
    outcome,
    requestId: input.requestId,
    answerIsRead: true,
  });
  if (!settled.won) throw closed();
  if (settled.settled.state === 'ResponseVerified') {
    // A statement of its own after the verifying one: settling is shared with the
    // wallet's direct_post answer, which hands nothing to a reader. Should this insert
    // fail, the call fails (500) without the data, which stays readable — and recorded —
    // through verifier-presentation-response.
    const reader = { subject: input.subject, route: 'verify-authorization-response', at: now } as const;
    await recordPresentationRead(deps.db, { orgId: session.orgId, sessionId: session.id, reader });
  }
  return settled.settled;
}
