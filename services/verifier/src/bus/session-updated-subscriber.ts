import { sessionUpdatedEvent, type SessionUpdatedEvent } from '@tessera/contracts';
import { subscribeEvents, type Logger, type MessageBus } from '@tessera/service-kit';

/**
 * Receives `verifier.v1.session.updated` on EVERY replica (a plain subscription, no
 * queue group): the stream of a session may be open on any replica, and any replica's
 * webhook worker may deliver its events, whichever one made the change. One
 * subscription per replica, handed to `onUpdated` (the session event hub re-reads the
 * session for its streams) and, when the session ended, to `onEnded` (the webhook
 * worker wakes: the event is published after its outbox row committed). Returns the
 * function that unsubscribes.
 */
export function subscribeSessionUpdates(
  bus: MessageBus,
  deps: {
    logger: Logger;
    onUpdated: (session: { orgId: string; id: string }) => Promise<void>;
    onEnded: (event: SessionUpdatedEvent) => void;
  },
): () => void {
  return subscribeEvents(bus, sessionUpdatedEvent, {
    logger: deps.logger,
    handler: (event) => {
      if (event.state === 'ResponseVerified' || event.state === 'Error') deps.onEnded(event);
      return deps.onUpdated({ orgId: event.orgId, id: event.id });
    },
  });
}
