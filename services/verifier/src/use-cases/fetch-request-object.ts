import { sessionUpdatedEvent, type ResponseMode } from '@tessera/contracts';
import { type Clock, type Logger, publishEvent } from '@tessera/service-kit';
import { KeyDecryptionError } from '../crypto/key-encryption.js';
import { signRequestObject } from '../crypto/sign-request-object.js';
import type { SessionRow } from '../db/schema.js';
import { markRequestRetrieved } from '../db/sessions.js';
import { buildRequestObject } from '../domain/request-object.js';
import { isDcApiMode } from '../domain/response-mode.js';
import type { VerifierInfoAttestation } from '../domain/verifier-info.js';
import type { SessionLimits } from '../domain/session-limits.js';
import { refuse, type WalletOutcome } from '../domain/wallet-refusal.js';
import { isWalletMetadata } from '../domain/wallet-metadata.js';
import { admitRequestFetch } from './steps/admit-wallet-request.js';
import { checkSessionOpen } from './steps/check-session-open.js';
import type { PersistSessionExpiryDeps } from './steps/persist-session-expiry.js';
import { loadSessionSigningKey } from './steps/session-signer.js';
import type { VerifierMetrics } from '../metrics/verifier-metrics.js';
import type { LoadSigningMaterial } from '../state/signing-material-loader.js';

export interface FetchRequestObjectDeps extends PersistSessionExpiryDeps {
  clock: Clock;
  loadSigningMaterial: LoadSigningMaterial;
  logger: Logger;
  sessionLimits: SessionLimits;
  metrics: Pick<VerifierMetrics, 'observeRequestObjectFetch'>;
}

export interface FetchRequestObjectInput {
  authorizationRequestId: string;
  /** From the wallet's POST (OpenID4VP 1.0 §5.10): must be a JSON object; not used otherwise yet. */
  walletMetadata?: string;
  /** From the wallet's POST: echoed in the freshly signed object. */
  walletNonce?: string;
  requestId?: string;
}

/**
 * The wallet fetches the request by reference: the object signed at creation,
 * or, when the wallet sends a `wallet_nonce` to echo, one signed now; the first fetch moves the
 * session `RequestCreated` → `RequestUriRetrieved` (a fetch of the stored object in the
 * statement that counts it: one statement in all). Unknown, expired, answered
 * and DC API sessions are refused, as are fetches beyond the session's limit
 * (SESSION_REQUEST_FETCH_LIMIT per window). Answers the compact JWS.
 */
export function fetchRequestObject(
  deps: FetchRequestObjectDeps,
  input: FetchRequestObjectInput,
): Promise<WalletOutcome<string>> {
  return deps.metrics.observeRequestObjectFetch(() => serveRequestObject(deps, input));
}

async function serveRequestObject(
  deps: FetchRequestObjectDeps,
  input: FetchRequestObjectInput,
): Promise<WalletOutcome<string>> {
  if (input.walletMetadata !== undefined && !isWalletMetadata(input.walletMetadata))
    return refuse.invalidRequest('wallet_metadata must be a JSON object.');
  const now = deps.clock();
  // A fetch served the object signed at creation makes the first retrieval in its counting statement.
  const admitted = await admitRequestFetch(deps, {
    authorizationRequestId: input.authorizationRequestId,
    now,
    servesStoredObject: !input.walletNonce,
  });
  if (!admitted.ok) return admitted;
  const { session, retrieved } = admitted.value;
  const responseMode = session.responseMode as ResponseMode;
  if (isDcApiMode(responseMode))
    return refuse.requestUnavailable(
      'This request is delivered through the Digital Credentials API, not by reference.',
    );
  const open = await checkSessionOpen(deps, { session, now, requestId: input.requestId });
  if (!open.open)
    return refuse.requestUnavailable(
      open.expired ? 'The authorization request has expired.' : 'The authorization request is no longer open.',
    );
  const jwt =
    input.walletNonce || !session.requestObject
      ? await signFreshRequestObject(deps, session, now, input.walletNonce)
      : session.requestObject;
  if (jwt === undefined)
    return refuse.requestUnavailable(
      'The organisation replaced its signing key after this session was created; start a new session.',
    );
  // A fetch signed anew (`wallet_nonce`) moves the state only once it is served.
  if (
    retrieved ||
    (session.state === 'RequestCreated' && (await markRequestRetrieved(deps.db, { id: session.id, now })))
  ) {
    publishEvent(
      deps.bus,
      sessionUpdatedEvent,
      { id: session.id, orgId: session.orgId, state: 'RequestUriRetrieved' },
      { requestId: input.requestId },
    );
  }
  return { ok: true, value: jwt };
}

/**
 * A request object signed now, for a fetch that brings a `wallet_nonce` to echo:
 * with the organisation's current key, which must still be the key the session's
 * `client_id` names (undefined when the organisation replaced it since).
 */
async function signFreshRequestObject(
  deps: FetchRequestObjectDeps,
  session: SessionRow,
  now: Date,
  walletNonce: string | undefined,
): Promise<string | undefined> {
  let key;
  try {
    key = await loadSessionSigningKey(deps, session);
  } catch (error) {
    if (error instanceof KeyDecryptionError)
      deps.logger.error(
        { err: error, orgId: session.orgId },
        'signing key cannot be decrypted: check KEY_ENCRYPTION_KEY',
      );
    throw error;
  }
  if (!key) return undefined;
  return signRequestObject({
    key,
    payload: buildRequestObject({
      clientId: session.clientId,
      responseMode: session.responseMode as ResponseMode,
      nonce: session.nonce,
      state: session.payloadState,
      responseUri: session.responseUri ?? undefined,
      dcqlQuery: session.dcqlQuery,
      clientMetadata: session.clientMetadata,
      transactionData: session.transactionData,
      // Exactly what was judged when the session was created.
      verifierInfo: session.verifierInfo as VerifierInfoAttestation[] | null,
      ...(walletNonce ? { walletNonce } : {}),
      now,
      expiresAt: session.expiresAt,
    }),
  });
}
