import {
  ErrorCode,
  type ClaimsState,
  type CreatedPresentation,
  type DcApiProtocol,
  type DcApiRequest,
  type IntentNotice,
  type OverAskingPath,
  type PresentationDataLifecycle,
  type PresentationSession,
  type ResponseMode,
} from '@tessera/contracts';
import type { PresentationDataLifecycleRow } from '../db/presentation-data-lifecycles.js';
import type { SessionRow } from '../db/schema.js';
import { readablePresentationData } from '../domain/presentation-data.js';
import { effectiveSessionState } from '../domain/session-state.js';

/**
 * A session as the management API shows it; state read at `now` (expiry applies at read time),
 * with its presentation data's lifecycle when it has a result.
 */
export function toPresentationSession(
  row: SessionRow,
  now: Date,
  lifecycle?: PresentationDataLifecycleRow,
): PresentationSession {
  const { state, error } = effectiveSessionState(row, now);
  // Settled states are final and nothing touches `updated_at` after them: it is the time of the settling answer.
  const answered =
    row.state === 'ResponseVerified' || (row.state === 'Error' && row.errorCode !== ErrorCode.SESSION_EXPIRED);
  return {
    id: row.id,
    authorizationRequestId: row.authorizationRequestId,
    ...(row.authorizationRequestUri ? { authorizationRequestUri: row.authorizationRequestUri } : {}),
    ...(row.requestUri ? { requestUri: row.requestUri } : {}),
    ...(row.responseUri ? { responseUri: row.responseUri } : {}),
    publicVerifierId: row.publicVerifierId,
    clientId: row.clientId,
    nonce: row.nonce,
    payloadState: row.payloadState,
    responseMode: row.responseMode as ResponseMode,
    ...(row.expectedOrigins ? { expectedOrigins: row.expectedOrigins } : {}),
    // Shown when the relying party chose them; absent on a DC API session means `["openid4vp-v1-signed"]`.
    ...(row.dcApiProtocols ? { dcApiProtocols: row.dcApiProtocols as DcApiProtocol[] } : {}),
    state,
    ...(error ? { error } : {}),
    ...(row.overAsking ? { overAsking: row.overAsking as OverAskingPath[] } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    ...(row.requestRetrievedAt ? { requestRetrievedAt: row.requestRetrievedAt.toISOString() } : {}),
    ...(answered ? { answeredAt: row.updatedAt.toISOString() } : {}),
    ...(lifecycle ? { presentationData: toPresentationDataLifecycle(lifecycle, now) } : {}),
  };
}

/** The lifecycle as a read at `now` finds it: a deadline passed counts before the purge job comes by. */
function toPresentationDataLifecycle(row: PresentationDataLifecycleRow, now: Date): PresentationDataLifecycle {
  const readable = readablePresentationData(row, now);
  const claimsState: ClaimsState = readable.kind === 'expired' ? 'purged' : readable.view;
  return {
    claimsState,
    dataExpiresAt: row.dataExpiresAt.toISOString(),
    ...(row.readExpiresAt ? { readExpiresAt: row.readExpiresAt.toISOString() } : {}),
    ...(row.claimsPurgedAt ? { claimsPurgedAt: row.claimsPurgedAt.toISOString() } : {}),
  };
}

/** The create answer: the record plus the DC API requests and the intent's notice, when there are. */
export function toCreatedPresentation(created: {
  session: SessionRow;
  createdAt: Date;
  dcApiRequest?: DcApiRequest;
  dcApiRequests?: DcApiRequest[];
  notice?: IntentNotice;
}): CreatedPresentation {
  return {
    ...toPresentationSession(created.session, created.createdAt),
    ...(created.dcApiRequest ? { dcApiRequest: created.dcApiRequest } : {}),
    ...(created.dcApiRequests ? { dcApiRequests: created.dcApiRequests } : {}),
    ...(created.notice ? { notice: created.notice } : {}),
  };
}
