import { sessionUpdatedEvent, type SessionUpdatedEvent } from '@tessera/contracts';
import { subscribeEvents, type MessageBus } from '@tessera/service-kit';
import { silentLogger } from '@tessera/service-kit/testing';

/** `verifier.v1.session.updated` events as another service receives them. */
export interface SessionEvents {
  /** Every event so far, in arrival order. */
  events: SessionUpdatedEvent[];
  /** Waits until an event for session `id` in `state` arrived, and returns it. */
  waitFor(id: string, state: SessionUpdatedEvent['state'], timeoutMs?: number): Promise<SessionUpdatedEvent>;
  /** The events of session `id` in `state` so far. */
  of(id: string, state: SessionUpdatedEvent['state']): SessionUpdatedEvent[];
  close(): Promise<void>;
}

/** Subscribes to session events on a peer connection of the app's bus. */
export async function listenToSessionEvents(
  connectPeer: (name: string) => Promise<MessageBus>,
): Promise<SessionEvents> {
  const bus = await connectPeer('session-listener');
  const events: SessionUpdatedEvent[] = [];
  subscribeEvents(bus, sessionUpdatedEvent, {
    logger: silentLogger(),
    handler: async (event) => void events.push(event),
  });
  await bus.ping();
  const of = (id: string, state: SessionUpdatedEvent['state']) =>
    events.filter((event) => event.id === id && event.state === state);
  return {
    events,
    of,
    async waitFor(id, state, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const [found] = of(id, state);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no ${state} event for ${id}; got ${JSON.stringify(events.filter((event) => event.id === id))}`);
    },
    close: () => bus.close(),
  };
}
