import { Subject } from '@tessera/contracts';
import type { MessageBus } from '@tessera/service-kit';

/** Collects `verifier.v1.session.updated` events as another service would receive them. */
export async function listenToSessionEvents(connectPeer: (name: string) => Promise<MessageBus>) {
  const bus = await connectPeer('session-listener');
  const events: Array<{ id: string; orgId: string; state: string }> = [];
  bus.subscribe(Subject.SESSION_UPDATED, (payload) => {
    events.push(payload as { id: string; orgId: string; state: string });
  });
  await bus.ping();
  return {
    events,
    /** Waits until an event for `id` in `state` arrived. */
    async waitFor(id: string, state: string, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const found = events.find((event) => event.id === id && event.state === state);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no ${state} event for ${id}; got ${JSON.stringify(events.filter((e) => e.id === id))}`);
    },
    close: () => bus.close(),
  };
}
