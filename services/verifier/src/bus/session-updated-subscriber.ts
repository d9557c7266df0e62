import { sessionUpdatedEvent } from '@tessera/contracts';
import { subscribeEvents, type Logger, type MessageBus } from '@tessera/service-kit';

/**
 * Receives `verifier.v1.session.updated` on EVERY replica (a plain subscription, no
 * queue group): the stream of a session may be open on any replica, whichever one
 * made the change. One subscription per replica, fanned out in memory by
 * `onUpdated` (the session event hub). Returns the function that unsubscribes.
 */
export function subscribeSessionUpdates(
  bus: MessageBus,
  deps: { logger: Logger; onUpdated: (sessionId: string) => Promise<void> },
): () => void {
  return subscribeEvents(bus, sessionUpdatedEvent, {
    logger: deps.logger,
    handler: (event) => deps.onUpdated(event.id),
  });
}
