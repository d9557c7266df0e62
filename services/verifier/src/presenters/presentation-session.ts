import type {
  CreatedPresentation,
  DcApiRequest,
  IntentNotice,
  OverAskingPath,
  PresentationSession,
  ResponseMode,
} from '@tessera/contracts';
import type { SessionRow } from '../db/schema.js';
import { effectiveSessionState } from '../domain/session-state.js';

/** A session as the management API shows it; state read at `now` (expiry applies at read time). */
export function toPresentationSession(row: SessionRow, now: Date): PresentationSession {
  const { state, error } = effectiveSessionState(row, now);
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
    state,
    ...(error ? { error } : {}),
    ...(row.overAsking ? { overAsking: row.overAsking as OverAskingPath[] } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** The create answer: the record plus the DC API request and the intent's notice, when there are. */
export function toCreatedPresentation(created: {
  session: SessionRow;
  createdAt: Date;
  dcApiRequest?: DcApiRequest;
  notice?: IntentNotice;
}): CreatedPresentation {
  return {
    ...toPresentationSession(created.session, created.createdAt),
    ...(created.dcApiRequest ? { dcApiRequest: created.dcApiRequest } : {}),
    ...(created.notice ? { notice: created.notice } : {}),
  };
}
