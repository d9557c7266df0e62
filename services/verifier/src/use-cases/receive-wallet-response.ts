import { ErrorCode, type ResponseMode } from '@tessera/contracts';
import { generateResponseCode, hashResponseCode } from '../crypto/response-code.js';
import {
  readDecryptedResponse,
  readFormResponse,
  walletErrorMessage,
  type AuthorizationResponseParts,
} from '../domain/authorization-response.js';
import { OAuthError } from '../routes/oauth-error.js';
import { addResponseCode } from '../domain/redirect-uri.js';
import { isDcApiMode, isEncryptedMode } from '../domain/response-mode.js';
import type { SessionLimits } from '../domain/session-limits.js';
import { decryptAuthorizationResponse } from '../verification/index.js';
import { admitWalletRequest } from './steps/admit-wallet-request.js';
import { checkSessionOpen } from './steps/check-session-open.js';
import { openSessionDecryptionKey, type OpenSessionDecryptionKeyDeps } from './steps/open-session-decryption-key.js';
import { runVerification, type RunVerificationDeps } from './steps/run-verification.js';
import {
  settleSessionOutcome,
  type SessionOutcome,
  type SettleSessionOutcomeDeps,
} from './steps/settle-session-outcome.js';

export type ReceiveWalletResponseDeps = SettleSessionOutcomeDeps &
  RunVerificationDeps &
  OpenSessionDecryptionKeyDeps & { sessionLimits: SessionLimits };

export interface ReceiveWalletResponseInput {
  authorizationRequestId: string;
  /** The form fields as posted. */
  fields: Record<string, unknown>;
  requestId?: string;
}

export interface ReceiveWalletResponseResult {
  /** The session's redirect after a verified answer (same-device flow), with a fresh `response_code` added. */
  redirectUri?: string;
}

const refuse = (description: string) => new OAuthError(400, 'invalid_request', description);

/**
 * `direct_post` / `direct_post.jwt` (VERIFIER.md, Wallet-facing endpoints).
 * Junk (unparseable, wrong `state`, not decryptable, plain to an encrypted
 * session) is refused with the session unchanged, so a party that only saw
 * the QR code cannot end it; a well-formed answer that fails verification ends
 * the session in `Error`; a wallet error ends it with WALLET_ERROR. Answers
 * beyond the session's limit (SESSION_RESPONSE_LIMIT per window) are 429.
 */
export async function receiveWalletResponse(
  deps: ReceiveWalletResponseDeps,
  input: ReceiveWalletResponseInput,
): Promise<ReceiveWalletResponseResult> {
  const now = deps.clock();
  const session = await admitWalletRequest(deps, {
    authorizationRequestId: input.authorizationRequestId,
    counter: 'response',
    now,
    unknown: () => new OAuthError(404, 'invalid_request', 'No authorization request exists at this response_uri.'),
    overLimit: (seconds) => `Too many responses to this authorization request: retry after ${seconds} s.`,
  });
  const mode = session.responseMode as ResponseMode;
  if (isDcApiMode(mode))
    throw refuse('This request is answered through the Digital Credentials API, not at this response_uri.');
  const encrypted = isEncryptedMode(mode);
  const open = await checkSessionOpen(deps, { session, now, requestId: input.requestId });
  if (!open.open)
    throw refuse(
      open.expired ? 'The authorization request has expired.' : 'The authorization request has already been answered.',
    );

  let parts: AuthorizationResponseParts = readFormResponse(input.fields, encrypted);
  if (parts.kind === 'encrypted') {
    const decrypted = await decryptAuthorizationResponse({
      jwe: parts.jwe,
      privateJwk: openSessionDecryptionKey(deps, session)!,
    });
    if (!decrypted.ok) throw refuse(`The response cannot be decrypted: ${decrypted.message}.`);
    parts = readDecryptedResponse(decrypted.payload);
  }
  if (parts.kind === 'invalid') throw refuse(parts.message);
  if (parts.kind === 'encrypted') throw refuse('The decrypted response is itself encrypted.');
  // An error without state is accepted (wallets may omit it); a wrong state never is.
  if (
    parts.kind === 'vp_token'
      ? parts.state !== session.payloadState
      : parts.state !== undefined && parts.state !== session.payloadState
  ) {
    throw refuse('state does not match the authorization request.');
  }

  const outcome: SessionOutcome =
    parts.kind === 'error'
      ? { ok: false, code: ErrorCode.WALLET_ERROR, message: walletErrorMessage(parts.error, parts.description) }
      : await runVerification(deps, { session, vpToken: parts.vpToken, flow: { kind: 'redirect' }, encrypted });
  // Same-device flow: a fresh Response Code for the redirect, only its hash stored
  // with the result, so only whoever follows this redirect can claim the result
  // (OpenID4VP 1.0 §8.2, Security Considerations "Session Fixation").
  const responseCode = outcome.ok && session.redirectUri ? generateResponseCode() : undefined;
  const settled = await settleSessionOutcome(deps, {
    session,
    outcome,
    requestId: input.requestId,
    ...(responseCode ? { responseCodeHash: hashResponseCode(responseCode) } : {}),
  });
  // Another answer won meanwhile, or the session expired while this one was verified.
  if (!settled.won) throw refuse('The authorization request is no longer open (answered or expired).');
  if (parts.kind === 'error') return {};
  if (!outcome.ok) throw refuse(`The presentation was not accepted: ${outcome.message}`);
  return session.redirectUri && responseCode ? { redirectUri: addResponseCode(session.redirectUri, responseCode) } : {};
}
