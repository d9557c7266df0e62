import { ErrorCode, type ResponseMode } from '@tessera/contracts';
import type { VerifierContext } from '../context.js';
import { findSessionByRequestId } from '../db/sessions.js';
import { readDecryptedResponse, readFormResponse, type AuthorizationResponseParts } from '../domain/authorization-response.js';
import { OAuthError } from '../domain/oauth-error.js';
import { isDcApiMode, isEncryptedMode } from '../domain/response-mode.js';
import { decryptAuthorizationResponse } from '../verification/index.js';
import { openSessionPrivateJwk, runVerification } from './run-verification.js';
import { checkSessionOpen, settleSession, type SessionOutcome } from './settle-session.js';

export interface ReceiveWalletResponseInput {
  authorizationRequestId: string;
  /** The form fields as posted. */
  fields: Record<string, unknown>;
  requestId?: string;
}

/** The 200 body: `{}`, or `{ redirect_uri }` when the session has one (same-device flow). */
export type WalletResponseAnswer = { redirect_uri?: string };

const refuse = (description: string) => new OAuthError(400, 'invalid_request', description);

/**
 * `direct_post` / `direct_post.jwt` (VERIFIER.md, Wallet-facing endpoints).
 * Junk (unparseable, wrong `state`, not decryptable, plain to an encrypted
 * session) is refused with the session unchanged, so a party that only saw
 * the QR code cannot end it; a well-formed answer that fails verification ends
 * the session in `Error`; a wallet error ends it with WALLET_ERROR.
 */
export async function receiveWalletResponse(ctx: VerifierContext, input: ReceiveWalletResponseInput): Promise<WalletResponseAnswer> {
  const session = await findSessionByRequestId(ctx.db, input.authorizationRequestId);
  if (!session) throw new OAuthError(404, 'invalid_request', 'No authorization request exists at this response_uri.');
  const mode = session.responseMode as ResponseMode;
  if (isDcApiMode(mode)) throw refuse('This request is answered through the Digital Credentials API, not at this response_uri.');
  const open = await checkSessionOpen(ctx, session, input.requestId);
  if (!open.open) throw refuse(open.expired ? 'The authorization request has expired.' : 'The authorization request has already been answered.');

  const encrypted = isEncryptedMode(mode);
  let parts: AuthorizationResponseParts = readFormResponse(input.fields, encrypted);
  if (parts.kind === 'encrypted') {
    const decrypted = await decryptAuthorizationResponse({ jwe: parts.jwe, privateJwk: openSessionPrivateJwk(ctx, session)! });
    if (!decrypted.ok) throw refuse(`The response cannot be decrypted: ${decrypted.message}.`);
    parts = readDecryptedResponse(decrypted.payload);
  }
  if (parts.kind === 'invalid') throw refuse(parts.message);
  if (parts.kind === 'encrypted') throw refuse('The decrypted response is itself encrypted.');
  // An error without state is accepted (wallets may omit it); a wrong state never is.
  if (parts.kind === 'vp_token' ? parts.state !== session.payloadState : parts.state !== undefined && parts.state !== session.payloadState) {
    throw refuse('state does not match the authorization request.');
  }

  const outcome: SessionOutcome =
    parts.kind === 'error'
      ? { ok: false, code: ErrorCode.WALLET_ERROR, message: walletErrorMessage(parts.error, parts.description) }
      : await runVerification(ctx, session, { vpToken: parts.vpToken, flow: { kind: 'redirect' }, encrypted });
  const settled = await settleSession(ctx, session, outcome, input.requestId);
  // Another answer won meanwhile, or the session expired while this one was verified.
  if (!settled.won) throw refuse('The authorization request is no longer open (answered or expired).');
  if (parts.kind === 'error') return {};
  if (!outcome.ok) throw refuse(`The presentation was not accepted: ${outcome.message}`);
  return session.redirectUri ? { redirect_uri: session.redirectUri } : {};
}

export function walletErrorMessage(error: string, description?: string): string {
  return `The wallet answered with an error: ${error}${description ? ` (${description})` : ''}.`;
}
