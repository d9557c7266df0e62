import { sessionUpdatedEvent } from '@tessera/contracts';
import { subscribeEvents, type Logger, type MessageBus } from '@tessera/service-kit';

/**
 * Receives `verifier.v1.session.updated` on EVERY replica (a plain subscription, no
 * queue group): the stream of a session may be open on any replica, whichever one made
 * the change. One subscription per replica, handed to `onUpdated` (the session event hub
 * re-reads the session for its streams). The webhook worker is not woken from here: a
 * session's end wakes it only when it wrote a delivery (PostgreSQL notifies,
 * `jobs/background-jobs.ts`). Returns the function that unsubscribes.
 */
export function subscribeSessionUpdates(
  bus: MessageBus,
  deps: {
    logger: Logger;
    onUpdated: (session: { orgId: string; id: string }) => Promise<void>;
  },
): () => void {
  return subscribeEvents(bus, sessionUpdatedEvent, {
    logger: deps.logger,
    handler: (event) => deps.onUpdated({ orgId: event.orgId, id: event.id }),
  });
}
