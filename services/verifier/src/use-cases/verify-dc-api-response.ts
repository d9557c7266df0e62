import { ErrorCode, type ResponseMode } from '@tessera/contracts';
import { AppError, badRequest, conflict, isUuid } from '@tessera/service-kit';
import { findSession } from '../db/sessions.js';
import { readDcApiResponse, readDecryptedResponse, walletErrorMessage, type AuthorizationResponseParts } from '../domain/authorization-response.js';
import { presentationSessionNotFound } from '../domain/errors.js';
import { isDcApiMode } from '../domain/response-mode.js';
import { decryptAuthorizationResponse } from '../verification/index.js';
import { checkSessionOpen } from './steps/check-session-open.js';
import { openSessionDecryptionKey, type OpenSessionDecryptionKeyDeps } from './steps/open-session-decryption-key.js';
import { runVerification, type RunVerificationDeps } from './steps/run-verification.js';
import { settleSessionOutcome, type SessionOutcome, type SettledOutcome, type SettleSessionOutcomeDeps } from './steps/settle-session-outcome.js';

export type VerifyDcApiResponseDeps = SettleSessionOutcomeDeps & RunVerificationDeps & OpenSessionDecryptionKeyDeps;

export interface VerifyDcApiResponseInput {
  orgId: string;
  verificationSessionId: string;
  authorizationResponse: Record<string, unknown>;
  origin: string;
  requestId?: string;
}

const closed = () => conflict(ErrorCode.SESSION_CLOSED, 'The session has already been answered or has expired; start a new one.');

/**
 * `POST verify-authorization-response` (VERIFIER.md, DC API flow). Refusals
 * (wrong origin, unreadable or undecryptable response) leave the session
 * unchanged; a processed response is settled whether it verified or not, and
 * the session's new state returned.
 */
export async function verifyDcApiResponse(deps: VerifyDcApiResponseDeps, input: VerifyDcApiResponseInput): Promise<SettledOutcome> {
  const session = isUuid(input.verificationSessionId) ? await findSession(deps.db, { orgId: input.orgId, id: input.verificationSessionId }) : undefined;
  if (!session) throw presentationSessionNotFound();
  const mode = session.responseMode as ResponseMode;
  if (!isDcApiMode(mode)) throw conflict(ErrorCode.NOT_DC_API_SESSION, `The session uses responseMode ${mode}: its wallet answers at the response_uri, not through this call.`);
  const open = await checkSessionOpen(deps, { session, now: deps.clock(), requestId: input.requestId });
  if (!open.open) throw closed();
  if (!(session.expectedOrigins ?? []).includes(input.origin)) {
    throw new AppError(400, ErrorCode.ORIGIN_NOT_ALLOWED, `The origin ${input.origin} is not one of the session's expectedOrigins.`, [{ path: '/origin', message: 'is not an expected origin' }]);
  }

  let parts: AuthorizationResponseParts = readDcApiResponse(input.authorizationResponse);
  const encrypted = parts.kind === 'encrypted';
  if (parts.kind === 'encrypted') {
    const privateJwk = openSessionDecryptionKey(deps, session);
    if (!privateJwk) throw badRequest(`A ${mode} session takes an unencrypted response (vp_token), not response.`, [{ path: '/authorizationResponse/response', message: 'is not expected for this session' }]);
    const decrypted = await decryptAuthorizationResponse({ jwe: parts.jwe, privateJwk });
    if (!decrypted.ok) throw new AppError(400, ErrorCode.DECRYPTION_FAILED, `The response cannot be decrypted with the session key: ${decrypted.message}.`);
    parts = readDecryptedResponse(decrypted.payload);
  }
  if (parts.kind === 'invalid' || parts.kind === 'encrypted') {
    throw badRequest(`The authorization response is not usable: ${parts.kind === 'invalid' ? parts.message : 'it is encrypted twice'}`, [{ path: '/authorizationResponse', message: parts.kind === 'invalid' ? parts.message : 'is encrypted twice' }]);
  }

  const outcome: SessionOutcome =
    parts.kind === 'error'
      ? { ok: false, code: ErrorCode.WALLET_ERROR, message: walletErrorMessage(parts.error, parts.description) }
      : await runVerification(deps, { session, vpToken: parts.vpToken, flow: { kind: 'dc_api', origin: input.origin }, encrypted });
  const settled = await settleSessionOutcome(deps, { session, outcome, requestId: input.requestId });
  if (!settled.won) throw closed();
  return settled.settled;
}
