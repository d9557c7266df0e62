import { sessionUpdatedEvent } from '@tessera/contracts';
import { publishEvent, type MessageBus } from '@tessera/service-kit';
import { expireSessions } from '../../db/sessions.js';
import type { VerifierDb } from '../../db/types.js';
import { SESSION_EXPIRED_MESSAGE } from '../../domain/session-state.js';

// Shared step: expiry is computed at read time (`effectiveSessionState`) and
// persisted by the next read, which publishes the change once.

export interface PersistSessionExpiryDeps {
  db: VerifierDb;
  bus: MessageBus;
}

export interface PersistSessionExpiryInput {
  /** One session, or all of an organisation's (both may be given). */
  id?: string;
  orgId?: string;
  now: Date;
  requestId?: string;
}

/** Moves open sessions past `expiresAt` to `Error`/SESSION_EXPIRED and publishes each change. */
export async function persistSessionExpiry(deps: PersistSessionExpiryDeps, input: PersistSessionExpiryInput): Promise<void> {
  const changed = await expireSessions(deps.db, { ...(input.orgId ? { orgId: input.orgId } : {}), ...(input.id ? { id: input.id } : {}), now: input.now, message: SESSION_EXPIRED_MESSAGE });
  for (const session of changed) {
    publishEvent(deps.bus, sessionUpdatedEvent, { id: session.id, orgId: session.orgId, state: 'Error' }, { requestId: input.requestId });
  }
}
