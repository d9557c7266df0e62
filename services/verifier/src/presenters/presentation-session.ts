import type {
  CreatedPresentation,
  DcApiProtocol,
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
    // Shown when the relying party chose them; absent on a DC API session means `["openid4vp-v1-signed"]`.
    ...(row.dcApiProtocols ? { dcApiProtocols: row.dcApiProtocols as DcApiProtocol[] } : {}),
    state,
    ...(error ? { error } : {}),
    ...(row.overAsking ? { overAsking: row.overAsking as OverAskingPath[] } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
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
