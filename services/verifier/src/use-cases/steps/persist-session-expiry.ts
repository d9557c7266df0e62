import { sessionUpdatedEvent } from '@tessera/contracts';
import { publishEvent, type MessageBus } from '@tessera/service-kit';
import { expireSessions } from '../../db/session-expiry.js';
import type { VerifierDb } from '../../db/types.js';
import { SESSION_EXPIRED_MESSAGE } from '../../domain/session-state.js';

// Shared step: expiry is computed at read time (`effectiveSessionState`) and
// persisted by the next read, or by the sweeper (`expire-due-sessions.ts`) when
// nobody reads the session, whichever comes first; the change is published once.

export interface PersistSessionExpiryDeps {
  db: VerifierDb;
  bus: MessageBus;
}

export interface PersistSessionExpiryInput {
  /** One session, or all of an organisation's (both may be given). */
  id?: string;
  orgId?: string;
  /** At most this many sessions, skipping those another replica holds (the sweeper, `expire-due-sessions.ts`). */
  limit?: number;
  now: Date;
  requestId?: string;
}

/**
 * Moves open sessions past `expiresAt` to `Error`/SESSION_EXPIRED (writing their
 * webhook events in the same statement) and publishes each change. Answers how
 * many sessions it moved.
 */
export async function persistSessionExpiry(
  deps: PersistSessionExpiryDeps,
  input: PersistSessionExpiryInput,
): Promise<number> {
  const changed = await expireSessions(deps.db, {
    ...(input.orgId ? { orgId: input.orgId } : {}),
    ...(input.id ? { id: input.id } : {}),
    ...(input.limit !== undefined ? { limit: input.limit } : {}),
    now: input.now,
    message: SESSION_EXPIRED_MESSAGE,
  });
  for (const session of changed) {
    publishEvent(
      deps.bus,
      sessionUpdatedEvent,
      { id: session.id, orgId: session.orgId, state: 'Error' },
      { requestId: input.requestId },
    );
  }
  return changed.length;
}
