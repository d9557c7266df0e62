import { ErrorCode, type ResponseMode } from '@tessera/contracts';
import { generateResponseCode, hashResponseCode } from '../crypto/response-code.js';
import {
  readDecryptedResponse,
  readFormResponse,
  type AuthorizationResponseParts,
} from '../domain/authorization-response.js';
import { addResponseCode } from '../domain/redirect-uri.js';
import { isDcApiMode, isEncryptedMode } from '../domain/response-mode.js';
import { refuse, type WalletOutcome } from '../domain/wallet-refusal.js';
import { decryptAuthorizationResponse } from '../verification/index.js';
import { admitWalletRequest } from './steps/admit-wallet-request.js';
import { checkSessionOpen } from './steps/check-session-open.js';
import { openSessionDecryptionKey } from './steps/open-session-decryption-key.js';
import type { PresentationAnswerDeps } from './steps/presentation-answer-deps.js';
import { runVerification } from './steps/run-verification.js';
import { settleSessionOutcome, type SessionOutcome } from './steps/settle-session-outcome.js';

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

/**
 * `direct_post` / `direct_post.jwt` (VERIFIER.md, Wallet-facing endpoints).
 * Junk (unparseable, missing or wrong `state` — a wallet error's too —, not
 * decryptable, a plain `vp_token` to an encrypted session) is refused with the session unchanged, so a party that only saw
 * the QR code cannot end it; a well-formed answer that fails verification ends
 * the session in `Error` (and is refused: the wallet learns why); a wallet error
 * ends it with WALLET_ERROR. Answers beyond the session's limit
 * (SESSION_RESPONSE_LIMIT per window) are refused as over the limit.
 */
export async function receiveWalletResponse(
  deps: PresentationAnswerDeps,
  input: ReceiveWalletResponseInput,
): Promise<WalletOutcome<ReceiveWalletResponseResult>> {
  const now = deps.clock();
  const admitted = await admitWalletRequest(deps, {
    authorizationRequestId: input.authorizationRequestId,
    counter: 'response',
    now,
  });
  if (!admitted.ok) return admitted;
  const session = admitted.value;
  const mode = session.responseMode as ResponseMode;
  if (isDcApiMode(mode))
    return refuse.requestUnavailable(
      'This request is answered through the Digital Credentials API, not at this response_uri.',
    );
  const encrypted = isEncryptedMode(mode);
  const open = await checkSessionOpen(deps, { session, now, requestId: input.requestId });
  if (!open.open)
    return refuse.requestUnavailable(
      open.expired ? 'The authorization request has expired.' : 'The authorization request has already been answered.',
    );

  let parts: AuthorizationResponseParts = readFormResponse(input.fields, encrypted);
  if (parts.kind === 'encrypted') {
    const decrypted = await decryptAuthorizationResponse({
      jwe: parts.jwe,
      privateJwk: openSessionDecryptionKey(deps, session)!,
    });
    if (!decrypted.ok) return refuse.invalidRequest(`The response cannot be decrypted: ${decrypted.message}.`);
    parts = readDecryptedResponse(decrypted.payload);
  }
  if (parts.kind === 'invalid') return refuse.invalidRequest(parts.message);
  if (parts.kind === 'encrypted') return refuse.invalidRequest('The decrypted response is itself encrypted.');
  // Every answer here carries the session's state, a wallet error included, plaintext or
  // encrypted (RFC 6749 §4.1.2.1, OpenID4VP 1.0 §8: REQUIRED when the request had one, and
  // ours always do): a party that only saw the QR code cannot end the session with a bare
  // `error=access_denied` (issue 28, item 7; the residual risk is in the README).
  if (parts.state === undefined) return refuse.invalidRequest('state is required.');
  if (parts.state !== session.payloadState)
    return refuse.invalidRequest('state does not match the authorization request.');

  const outcome: SessionOutcome =
    parts.kind === 'error'
      ? { ok: false, code: ErrorCode.WALLET_ERROR, error: parts.error }
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
  if (!settled.won)
    return refuse.requestUnavailable('The authorization request is no longer open (answered or expired).');
  if (parts.kind === 'error') return { ok: true, value: {} };
  // The session ended in Error: the wallet is told why (its answer was read, so this is no refusal
  // of junk) — in the session's own words, never the engine's (domain/session-errors.ts).
  if (settled.settled.state === 'Error')
    return refuse.invalidRequest(`The presentation was not accepted: ${settled.settled.error.message}`);
  return {
    ok: true,
    value:
      session.redirectUri && responseCode ? { redirectUri: addResponseCode(session.redirectUri, responseCode) } : {},
  };
}
