import { ErrorCode, type AuthorizationResponseOutcome, type ResponseMode } from '@tessera/contracts';
import { AppError, badRequest, conflict, isUuid, notFound } from '@tessera/service-kit';
import type { VerifierContext } from '../context.js';
import { findSession } from '../db/sessions.js';
import { readDcApiResponse, readDecryptedResponse, type AuthorizationResponseParts } from '../domain/authorization-response.js';
import { isDcApiMode } from '../domain/response-mode.js';
import { decryptAuthorizationResponse } from '../verification/index.js';
import { walletErrorMessage } from './receive-wallet-response.js';
import { openSessionPrivateJwk, runVerification } from './run-verification.js';
import { checkSessionOpen, settleSession, type SessionOutcome } from './settle-session.js';

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
 * unchanged; a processed response answers 200 whether it verified or not,
 * with the session's new state.
 */
export async function verifyDcApiResponse(ctx: VerifierContext, input: VerifyDcApiResponseInput): Promise<AuthorizationResponseOutcome> {
  const session = isUuid(input.verificationSessionId) ? await findSession(ctx.db, { orgId: input.orgId, id: input.verificationSessionId }) : undefined;
  if (!session) throw notFound('The organisation has no presentation session with this id.', ErrorCode.NOT_FOUND);
  const mode = session.responseMode as ResponseMode;
  if (!isDcApiMode(mode)) throw conflict(ErrorCode.NOT_DC_API_SESSION, `The session uses responseMode ${mode}: its wallet answers at the response_uri, not through this call.`);
  const open = await checkSessionOpen(ctx, session, input.requestId);
  if (!open.open) throw closed();
  if (!(session.expectedOrigins ?? []).includes(input.origin)) {
    throw new AppError(400, ErrorCode.ORIGIN_NOT_ALLOWED, `The origin ${input.origin} is not one of the session's expectedOrigins.`, [{ path: '/origin', message: 'is not an expected origin' }]);
  }

  let parts: AuthorizationResponseParts = readDcApiResponse(input.authorizationResponse);
  const encrypted = parts.kind === 'encrypted';
  if (parts.kind === 'encrypted') {
    const privateJwk = openSessionPrivateJwk(ctx, session);
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
      : await runVerification(ctx, session, { vpToken: parts.vpToken, flow: { kind: 'dc_api', origin: input.origin }, encrypted });
  const settled = await settleSession(ctx, session, outcome, input.requestId);
  if (!settled.won) throw closed();
  return settled.outcome;
}
