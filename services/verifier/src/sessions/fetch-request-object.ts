import { KeyDecryptionError } from '../crypto/key-encryption.js';
import { signRequestObject } from '../crypto/sign-request-object.js';
import type { VerifierContext } from '../context.js';
import { expireSessions, findSessionByRequestId, markRequestRetrieved } from '../db/sessions.js';
import { OAuthError } from '../domain/oauth-error.js';
import { buildRequestObject } from '../domain/request-object.js';
import { isDcApiMode } from '../domain/response-mode.js';
import { effectiveSessionState, isOpenState, SESSION_EXPIRED_MESSAGE } from '../domain/session-state.js';
import type { ResponseMode } from '@tessera/contracts';
import { AppError } from '@tessera/service-kit';
import { signerForSession } from './request-signing.js';
import { publishSessionUpdated } from './session-events.js';

export interface FetchRequestObjectInput {
  authorizationRequestId: string;
  /** From the wallet's POST (OpenID4VP 1.0 §5.10): echoed in the freshly signed object. */
  walletNonce?: string;
  requestId?: string;
}

/**
 * The wallet fetches the request by reference: a freshly signed request object
 * each time (so a `wallet_nonce` can be echoed); the first fetch moves the
 * session `RequestCreated` → `RequestUriRetrieved`. Unknown, expired, answered
 * and DC API sessions answer OAuth errors.
 */
export async function fetchRequestObject(ctx: VerifierContext, input: FetchRequestObjectInput): Promise<string> {
  const session = await findSessionByRequestId(ctx.db, input.authorizationRequestId);
  if (!session) throw new OAuthError(404, 'invalid_request_uri', 'No authorization request exists at this request_uri.');
  const responseMode = session.responseMode as ResponseMode;
  if (isDcApiMode(responseMode)) {
    throw new OAuthError(400, 'invalid_request_uri', 'This request is delivered through the Digital Credentials API, not by reference.');
  }
  const now = ctx.now();
  const { state, error } = effectiveSessionState(session, now);
  if (state === 'Error' && session.state !== 'Error') {
    // Expired since the last read: persist it, so the change is published once.
    for (const changed of await expireSessions(ctx.db, { id: session.id, now, message: SESSION_EXPIRED_MESSAGE })) {
      publishSessionUpdated(ctx.bus, { id: changed.id, orgId: changed.orgId, state: 'Error' }, input.requestId);
    }
  }
  if (!isOpenState(state)) {
    const expired = error?.code === 'SESSION_EXPIRED';
    throw new OAuthError(400, 'invalid_request_uri', expired ? 'The authorization request has expired.' : 'The authorization request is no longer open.');
  }
  let key;
  try {
    key = await signerForSession(ctx, session);
  } catch (error) {
    if (error instanceof AppError) throw new OAuthError(400, 'invalid_request_uri', error.message);
    if (error instanceof KeyDecryptionError) ctx.logger.error({ err: error, orgId: session.orgId }, 'signing key cannot be decrypted: check KEY_ENCRYPTION_KEY');
    throw error;
  }
  const jwt = await signRequestObject({
    key,
    payload: buildRequestObject({
      clientId: session.clientId,
      responseMode,
      nonce: session.nonce,
      state: session.payloadState,
      responseUri: session.responseUri ?? undefined,
      dcqlQuery: session.dcqlQuery,
      clientMetadata: session.clientMetadata,
      transactionData: session.transactionData,
      ...(input.walletNonce ? { walletNonce: input.walletNonce } : {}),
      now,
      expiresAt: session.expiresAt,
    }),
  });
  if (session.state === 'RequestCreated' && (await markRequestRetrieved(ctx.db, { id: session.id, now }))) {
    publishSessionUpdated(ctx.bus, { id: session.id, orgId: session.orgId, state: 'RequestUriRetrieved' }, input.requestId);
  }
  return jwt;
}
