import { ErrorCode, type DcApiProtocol, type ResponseMode } from '@tessera/contracts';
import { AppError, conflict, isUuid } from '@tessera/service-kit';
import { recordPresentationRead } from '../db/presentation-reads.js';
import { countSessionRequest } from '../db/sessions.js';
import { sessionDcApiProtocols } from '../domain/dc-api-protocols.js';
import { presentationSessionNotFound, RetryLaterError } from '../domain/errors.js';
import { isDcApiMode } from '../domain/response-mode.js';
import { checkSessionLimit } from '../domain/session-limits.js';
import type { VerifierMetrics } from '../metrics/verifier-metrics.js';
import { checkSessionOpen } from './steps/check-session-open.js';
import type { PresentationAnswerDeps } from './steps/presentation-answer-deps.js';
import { readDcApiAnswer, type DcApiAnswer } from './steps/read-dc-api-answer.js';
import { runVerification } from './steps/run-verification.js';
import { settleSessionOutcome, type SessionOutcome, type SettledOutcome } from './steps/settle-session-outcome.js';

export type VerifyDcApiResponseDeps = PresentationAnswerDeps & {
  metrics: Pick<VerifierMetrics, 'countPresentation' | 'countDcApiAnswer'>;
};

export interface VerifyDcApiResponseInput {
  orgId: string;
  verificationSessionId: string;
  authorizationResponse: Record<string, unknown>;
  origin: string;
  /** `DigitalCredential.protocol`: which of the session's requests the wallet answered; default the session's first. */
  protocol?: DcApiProtocol;
  /** The caller's access-token subject: a verified answer hands out presentation data, recorded as read by it. */
  subject: string;
  requestId?: string;
}

const closed = () =>
  conflict(ErrorCode.SESSION_CLOSED, 'The session has already been answered or has expired; start a new one.');

/**
 * `POST verify-authorization-response` (VERIFIER.md, DC API flow). Refusals
 * (wrong origin, a protocol the session did not offer, unreadable, undecryptable
 * or — for `dc_api.jwt` — unencrypted response) leave the session unchanged; a
 * processed response is settled whether it verified or not, and the session's new
 * state returned. Every protocol's answer goes through the one verification engine
 * (`org-iso-mdoc`: its DeviceResponse, with the Annex C transcript). Answers beyond the
 * session's limit (SESSION_RESPONSE_LIMIT per window) are 429 RATE_LIMITED.
 * A verified answer carries the presentation data, so it is recorded as a read
 * (`presentation_reads`) before it is returned: the data never leaves unrecorded.
 */
export async function verifyDcApiResponse(
  deps: VerifyDcApiResponseDeps,
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

  const protocol = input.protocol ?? sessionDcApiProtocols(session.dcApiProtocols)[0]!;
  let answer: DcApiAnswer;
  try {
    if (!sessionDcApiProtocols(session.dcApiProtocols).includes(protocol))
      throw new AppError(
        400,
        ErrorCode.DC_API_PROTOCOL_MISMATCH,
        `The session did not offer ${protocol}: it offered ${sessionDcApiProtocols(session.dcApiProtocols).join(', ')}.`,
        [{ path: '/protocol', message: 'is not one of the session’s dcApiProtocols' }],
      );
    answer = await readDcApiAnswer(deps, {
      session,
      protocol,
      authorizationResponse: input.authorizationResponse,
      origin: input.origin,
    });
  } catch (error) {
    if (error instanceof AppError) deps.metrics.countDcApiAnswer(protocol, error.code);
    throw error;
  }

  const outcome: SessionOutcome =
    answer.kind === 'error'
      ? { ok: false, code: ErrorCode.WALLET_ERROR, error: answer.error }
      : answer.kind === 'invalid_vp_token'
        ? { ok: false, code: ErrorCode.INVALID_VP_TOKEN, message: answer.message }
        : await runVerification(deps, {
            session,
            vpToken: answer.vpToken,
            flow: { kind: 'dc_api', origin: input.origin },
            encrypted: answer.encrypted,
            ...(answer.dcApiAudiences ? { dcApiAudiences: answer.dcApiAudiences } : {}),
            ...(answer.mdocSessionTranscript ? { mdocSessionTranscript: answer.mdocSessionTranscript } : {}),
          });
  const settled = await settleSessionOutcome(deps, {
    session,
    outcome,
    requestId: input.requestId,
    answerIsRead: true,
  });
  if (!settled.won) throw closed();
  deps.metrics.countDcApiAnswer(protocol, settled.settled.state === 'ResponseVerified' ? 'verified' : 'failed');
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
